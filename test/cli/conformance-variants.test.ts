/*
 * `conformance` against every variant of the reference (SERVICE_VARIANTS: the other common ways to
 * fill interface.md's gaps, D13): each keeps interface.md, so the run exits 0 and names each
 * difference from the reference with its decision; with `--reference` those differences fail (exit
 * 1). The reference itself passes both ways. A deployment that breaks interface.md (the issue's:
 * the python stack, dropping the sub-microsecond digits of `start`) exits 1 both ways.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../cli/conformance/index.js'
import { createMockService, SERVICE_VARIANTS, type MockService, type ServiceVariant } from '../../mocks/index.js'
import { startMockServer } from '../../mocks/server/index.js'
import { startServe, type ServeProcess } from '../support/child-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const DIR = mkdtempSync(join(tmpdir(), 'conformance-variants-'))
const KEYS = { main: 'demo-enterprise-key', free: 'demo-free-key', pro: 'demo-pro-key', enterprise: 'demo-enterprise-key-2' }
for (const [name, key] of Object.entries(KEYS)) writeFileSync(join(DIR, name), `${key}\n`)
const KEY_FLAGS = ['--api-key-file', join(DIR, 'main'), ...['free', 'pro', 'enterprise'].flatMap((p) => ['--key-file', `${p}=${join(DIR, p)}`])]

interface Run {
  code: number
  out: string
  json: any
  junit: string
}

let runs = 0
/** `conformance` in process (what `market-candles conformance` runs), its JSON and JUnit reports read back. */
async function conformance(baseUrl: string, flags: string[] = []): Promise<Run> {
  const file = join(DIR, `run-${++runs}`)
  const out: string[] = []
  const code = await runConformance(['--base-url', baseUrl, ...KEY_FLAGS, '--json', `${file}.json`, '--junit', `${file}.xml`, ...flags], { out: (l) => out.push(l), err: (l) => out.push(l), env: {} })
  return { code, out: out.join('\n'), json: JSON.parse(readFileSync(`${file}.json`, 'utf8')), junit: readFileSync(`${file}.xml`, 'utf8') }
}

const ids = (run: Run, verdict: string) => run.json.rules.filter((r: any) => r.verdict === verdict).map((r: any) => r.id).sort()

/**
 * The rules a variant differs in, each with the decisions named: what each field of a variant
 * changes, from the decisions it departs from (decisions.md).
 */
function expectedDifferences(v: ServiceVariant): Record<string, string[]> {
  const out: Record<string, Set<string>> = {}
  const add = (rule: string, decision: string) => (out[rule] ??= new Set()).add(decision)
  if (v.timestamps !== undefined && v.timestamps !== 'Z') add('openapi', 'D5')
  if (v.missingKey === 403) add('auth-401', 'D2')
  if (v.errorBodies !== undefined && v.errorBodies !== 'pydantic-v2') {
    add('validation-422', 'D1')
    add('limit-bounds', 'D1')
    add('openapi', 'D1')
  }
  if (v.errorBodies === 'text') {
    // Without a JSON body, nothing that reads `detail` can see it.
    add('auth-401', 'D2')
    add('resolution-404', 'D1')
    add('plan-access', 'D1')
    add('plan-depth', 'D6')
    add('other-requests', 'D12')
  }
  if (v.rateLimitHeaders !== undefined && v.rateLimitHeaders !== 'all') add('ratelimit-headers', 'D7')
  if (v.nullFields === 'omit' || v.extraFields === true) add('openapi', 'D13')
  return Object.fromEntries(Object.entries(out).map(([rule, set]) => [rule, [...set].sort()]))
}

/** Rules that may skip: the counting rules read usage from RateLimit-* (absent in some variants), or a loaded machine. */
const mayBeInconclusive = (rule: any) => /^inconclusive: /.test(rule.reason)

let serve: ServeProcess | undefined
let url: string
const defaultRuns = new Map<string, Promise<Run>>()
const strictRuns = new Map<string, Promise<Run>>()
let brokenRuns: Promise<{ run: Run; strict: Run }>

beforeAll(async () => {
  serve = await startServe(process.execPath, [CLI, 'serve', '--port', '0', '--now', '2025-01-01T00:00:00Z'])
  url = serve.url
  // Two sessions per variant (one per run: each run reads its account's usage alone), each set as a
  // user would: PUT /_sessions/NAME/_mock/variant.
  for (const name of Object.keys(SERVICE_VARIANTS)) {
    for (const session of [`v-${name}`, `r-${name}`]) {
      const res = await fetch(`${url}/_sessions/${session}/_mock/variant`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ preset: name }) })
      expect(res.status, await res.text()).toBe(200)
    }
  }
  // The runs wait for their pacing slots most of the time: all side by side, each session its own
  // account. --reference runs only the rules the variant is expected to differ in (the reference: all).
  for (const [name, variant] of Object.entries(SERVICE_VARIANTS)) {
    defaultRuns.set(name, conformance(`${url}/_sessions/v-${name}`))
    const only = Object.keys(expectedDifferences(variant)).flatMap((id) => ['--only', id])
    if (name === 'reference' || only.length > 0) strictRuns.set(name, conformance(`${url}/_sessions/r-${name}`, ['--reference', ...only]))
  }
  brokenRuns = brokenDeployment()
  for (const run of [...defaultRuns.values(), ...strictRuns.values(), brokenRuns]) run.catch(() => {})
}, 30_000)

afterAll(async () => {
  await Promise.allSettled([...defaultRuns.values(), ...strictRuns.values(), brokenRuns])
  await serve?.stop()
  rmSync(DIR, { recursive: true, force: true })
})

describe('conformance against every variant of the reference (serve, one session per variant)', () => {
  test.each(Object.entries(SERVICE_VARIANTS).filter(([name]) => name !== 'reference'))(
    'variant %s keeps interface.md: exit 0, each difference named with its decision; with --reference those rules fail, exit 1',
    async (name, variant) => {
      const run = await defaultRuns.get(name)!
      const expected = expectedDifferences(variant)
      expect(ids(run, 'fail'), run.out).toEqual([])
      expect(run.code, run.out).toBe(0)
      const differing = Object.fromEntries(run.json.rules.filter((r: any) => r.verdict === 'differ').map((r: any) => [r.id, [...new Set(r.differences.map((d: any) => d.source?.ref).filter(Boolean))].sort()]))
      expect(differing, run.out).toEqual(expected)
      expect(run.json.rules.filter((r: any) => r.verdict === 'skip' && !mayBeInconclusive(r)), run.out).toEqual([])
      for (const [rule, decisions] of Object.entries(expected)) {
        expect(run.out).toMatch(new RegExp(`^DIFF  ${rule} `, 'm'))
        for (const d of decisions) expect(run.out).toContain(`source:   ${d} (`)
      }
      expect(run.out).toContain(`differences from the reference (${[...new Set(Object.values(expected).flat())].sort().join(', ')}): listed, not failed`)

      // --reference: the same deployment checked as a copy of the reference; the rules that differed fail.
      const strict = await strictRuns.get(name)!
      expect(strict.code, strict.out).toBe(1)
      expect(ids(strict, 'fail'), strict.out).toEqual(Object.keys(expected).sort())
      expect(strict.json.reference).toBe(true)
      expect(strict.junit).toMatch(/<failure message="[^"]+" type="reference">/)
      expect(strict.out).toMatch(/failed, as --reference asks/)
    },
    240_000,
  )

  test('the reference itself: exit 0 and no difference, by default and with --reference', async () => {
    const run = await defaultRuns.get('reference')!
    expect(ids(run, 'fail'), run.out).toEqual([])
    expect(ids(run, 'differ'), run.out).toEqual([])
    expect(run.code).toBe(0)
    const strict = await strictRuns.get('reference')!
    expect(ids(strict, 'fail'), strict.out).toEqual([])
    expect(strict.code, strict.out).toBe(0)
    expect(strict.json.rules.filter((r: any) => r.verdict === 'skip' && !/too slow/.test(r.reason))).toEqual([])
  }, 240_000)

  test('the built CLI on the python-stack variant, as a user runs it: exit 0 naming the differences, exit 1 with --reference', async () => {
    const base = `${url}/_sessions/v-python-stack`
    const cli = async (flags: string[]) => {
      const child = spawn(process.execPath, [CLI, 'conformance', '--base-url', base, '--api-key-file', join(DIR, 'main'), '--only', 'auth-401', '--only', 'start-anchor', ...flags], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH } })
      let stdout = ''
      child.stdout.on('data', (d) => (stdout += d))
      child.stderr.on('data', (d) => (stdout += d))
      const [code] = await once(child, 'exit')
      return { code: code as number, stdout }
    }
    const plain = await cli([])
    expect(plain.code, plain.stdout).toBe(0)
    expect(plain.stdout).toMatch(/^PASS  start-anchor /m)
    expect(plain.stdout).toMatch(/^DIFF  auth-401 /m)
    expect(plain.stdout).toMatch(/got: {6}403 /)
    const strict = await cli(['--reference'])
    expect(strict.code, strict.stdout).toBe(1)
    expect(strict.stdout).toMatch(/^FAIL  auth-401 /m)
    expect(strict.stdout).toMatch(/^PASS  start-anchor /m)
  }, 60_000)
})

/**
 * The deployment issue 34 met, over the python-stack variant: Python's datetime keeps microseconds,
 * so a 7th to 9th fractional digit of `start`/`end` is dropped (breaks interface.md), and a value
 * that does not resolve on a candle endpoint answers `[]` (fills D4's gap another way).
 */
function issueDeployment(service: MockService): MockService {
  return {
    ...service,
    handle: async (request) => {
      const url = new URL(request.url, 'http://service')
      for (const name of ['start', 'end']) {
        const value = url.searchParams.get(name)
        if (value !== null) url.searchParams.set(name, value.replace(/([.,]\d{6})\d+/, '$1'))
      }
      const res = await service.handle({ ...request, url: `${url.pathname}${url.search}` })
      return res.status === 404 && /^\/v1\/(exchange|aggregated)_ohlcv$/.test(url.pathname) ? { ...res, status: 200, headers: { 'content-type': 'application/json' }, body: [] } : res
    },
  }
}

/** The issue's deployment (issueDeployment), by default and with --reference. */
async function brokenDeployment(): Promise<{ run: Run; strict: Run }> {
  const server = await startMockServer({ port: 0, service: issueDeployment(createMockService({ now: '2025-01-01T00:00:00Z', variant: 'python-stack' })) })
  try {
    // One after the other: both read the same account.
    const run = await conformance(server.url)
    const strict = await conformance(server.url, ['--reference', '--only', 'fractional-bounds'])
    return { run, strict }
  } finally {
    await server.close()
  }
}

describe('a deployment that breaks interface.md', () => {
  test("the issue's deployment (the python stack dropping the sub-microsecond digits of start, [] for an unknown pair on a candle endpoint): fractional-bounds fails, exit 1 both ways; its other choices are differences", async () => {
    const { run, strict } = await brokenRuns
    expect(ids(run, 'fail'), run.out).toEqual(['fractional-bounds'])
    expect(run.code).toBe(1)
    const rule = run.json.rules.find((r: any) => r.id === 'fractional-bounds')
    expect(rule.failures[0].message).toMatch(/^start \S+T\d\d:00:00\.0000001Z admits the candle at /)
    expect(rule.failures[0].source.ref).toBe('interface.md#start')
    expect(run.out).toMatch(/seen: exchange_ohlcv: start \S+\.0000001Z -> first close_ts (\S+) \(the candle at \1 lies outside it\)/)
    // What it fills otherwise is still only a difference: the python stack's, and [] for a value that
    // does not resolve on a candle endpoint (D4; D3 for an unknown exchange whose start no plan reaches).
    expect(ids(run, 'differ'), run.out).toEqual([...Object.keys(expectedDifferences(SERVICE_VARIANTS['python-stack'])), 'order-of-checks', 'resolution-404'].sort())
    const resolution = run.json.rules.find((r: any) => r.id === 'resolution-404')
    expect(resolution.differences[0]).toMatchObject({ actual: expect.stringMatching(/^200 \[\]/), source: { ref: 'D4' } })
    expect(ids(strict, 'fail'), strict.out).toEqual(['fractional-bounds'])
    expect(strict.code).toBe(1)
    expect(strict.junit).toMatch(/<failure message="start [^"]+" type="interface">/)
  }, 240_000)
})
