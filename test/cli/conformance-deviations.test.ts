import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../cli/conformance/index.js'
import { createMockService, type MockService } from '../../mocks/index.js'
import { startMockServer } from '../../mocks/server/index.js'
import { DEVIATIONS, deviate, type Deviation } from '../support/deviations.js'

const DIR = mkdtempSync(join(tmpdir(), 'conformance-'))
const KEYS = { main: 'demo-enterprise-key', free: 'demo-free-key', pro: 'demo-pro-key', enterprise: 'demo-enterprise-key-2' }
for (const [name, key] of Object.entries(KEYS)) writeFileSync(join(DIR, name), `${key}\n`)

interface Run {
  code: number
  out: string
  err: string
  json: any
  junit: string
}

/** Runs the command in-process against the reference service over HTTP (wrapped by `wrap`). */
async function check(name: string, wrap: (service: MockService) => MockService, flags: string[] = [], plans = true): Promise<Run> {
  const server = await startMockServer({ port: 0, service: wrap(createMockService({ now: '2025-01-01T00:00:00Z' })) })
  const out: string[] = []
  const err: string[] = []
  const file = (ext: string) => join(DIR, `${name}.${ext}`)
  try {
    const code = await runConformance(
      ['--base-url', server.url, '--api-key-file', join(DIR, 'main'), ...(plans ? ['free', 'pro', 'enterprise'] : []).flatMap((p) => ['--key-file', `${p}=${join(DIR, p)}`]), '--junit', file('xml'), '--json', file('json'), ...flags],
      { out: (l) => out.push(l), err: (l) => err.push(l), env: {} },
    )
    return { code, out: out.join('\n'), err: err.join('\n'), json: JSON.parse(readFileSync(file('json'), 'utf8')), junit: readFileSync(file('xml'), 'utf8') }
  } finally {
    await server.close()
  }
}

const failed = (run: Run) => run.json.rules.filter((r: any) => r.verdict === 'fail').map((r: any) => r.id)
const differing = (run: Run) => run.json.rules.filter((r: any) => r.verdict === 'differ').map((r: any) => r.id)

/**
 * A timing rule skips as inconclusive ("too slow") when the machine is too loaded to time its calls
 * from outside: twenty runs share this file's process. That is the rule being careful, not a
 * verdict, so the deviation is checked again for that rule alone (`--only`), up to three times; it
 * must then fail, never pass.
 */
async function conclusive(run: Run, deviation: Deviation): Promise<Run> {
  const inconclusive = (r: Run) => r.json.rules.some((rule: any) => rule.id === deviation.breaks && rule.verdict === 'skip' && /too slow/.test(rule.reason))
  for (let attempt = 1; attempt <= 3 && inconclusive(run); attempt++) {
    run = await check(`${deviation.name}-again-${attempt}`.replace(/\W+/g, '-'), (s) => deviate(s, deviation), [...(deviation.flags ?? []), '--only', deviation.breaks])
  }
  return run
}

// Every run spends most of its time waiting for its pacing slots, so they run side by side.
const runs = new Map<string, Promise<Run>>()
beforeAll(() => {
  // --reference: the reference differs from itself in nothing, so it passes even when differences fail.
  runs.set('none', check('none', (s) => s, ['--include', 'rate-limit', '--reference']))
  runs.set('budget', check('budget', (s) => s, ['--max-requests', '40'], false))
  // A service that quotes the key it was sent in an error body the report shows.
  runs.set('echo', check('echo', (s) => ({ ...s, handle: async (req) => {
    const res = await s.handle(req)
    const key = (req.headers as Record<string, string | undefined>)['x-api-key']
    return res.status === 404 && key ? { ...res, status: 400, body: { detail: `not found for key ${key}` } } : res
  } })))
  DEVIATIONS.forEach((d, i) => runs.set(d.name, check(`deviation-${i}`, (s) => deviate(s, d), d.flags)))
  // Keep unhandled rejections out until each test awaits its own run.
  for (const run of runs.values()) run.catch(() => {})
})
afterAll(async () => {
  await Promise.allSettled(runs.values())
  rmSync(DIR, { recursive: true, force: true })
})

describe('market-candles conformance against the reference service', () => {
  test('at least 15 deliberate deviations, each breaking a different rule, of both kinds', () => {
    expect(DEVIATIONS.length).toBeGreaterThanOrEqual(15)
    expect(new Set(DEVIATIONS.map((d) => d.kind))).toEqual(new Set(['failure', 'difference']))
    expect(new Set(DEVIATIONS.map((d) => d.breaks)).size).toBe(DEVIATIONS.length)
  })

  test('without a deviation, every rule passes and the command exits 0, even with --reference', async () => {
    const run = await runs.get('none')!
    expect(run.json.reference).toBe(true)
    expect(failed(run), run.out).toEqual([])
    expect(differing(run), run.out).toEqual([])
    // Only a timing rule may be inconclusive, on a machine too loaded to time a burst from outside.
    const skipped = run.json.rules.filter((r: any) => r.verdict === 'skip')
    expect(skipped.filter((r: any) => !/too slow/.test(r.reason)), run.out).toEqual([])
    expect(run.code).toBe(0)
    expect(run.json.requests.used).toBeLessThanOrEqual(run.json.requests.budget)
  }, 240_000)

  test('the request budget is kept: once used up, the rules left are skipped, saying why', async () => {
    const run = await runs.get('budget')!
    expect(run.json.requests.used).toBeLessThanOrEqual(40)
    const skipped = run.json.rules.filter((r: any) => r.verdict === 'skip')
    expect(skipped.length).toBeGreaterThan(0)
    expect(skipped.some((r: any) => /--max-requests 40/.test(r.reason))).toBe(true)
    expect(run.out).toMatch(/^SKIP  \S+ .*\n\s+sources: .*\n\s+skipped: the request budget \(--max-requests 40\) is used up/m)
    expect(failed(run), run.out).toEqual([])
  }, 240_000)

  test('a key the service quotes in a body is redacted in every report', async () => {
    const run = await runs.get('echo')!
    // A 400 for an unknown pair on a candle endpoint fills D4's gap another way: a difference, shown with its body.
    expect(differing(run)).toContain('resolution-404')
    expect(run.out).toContain('not found for key <redacted>')
    expect(run.junit).toContain('not found for key &lt;redacted&gt;')
  }, 240_000)

  const byKind = (kind: Deviation['kind']) => DEVIATIONS.filter((d) => d.kind === kind).map((d) => [d.name, d] as [string, Deviation])

  test.each(byKind('failure'))('with %s (a statement of interface.md broken), it fails exactly the rule broken, naming it and its source', async (name, deviation) => {
    const first = await runs.get(name)!
    expect(failed(first).filter((id: string) => id !== deviation.breaks), first.out).toEqual([])
    const run = await conclusive(first, deviation)
    expect(failed(run), run.out).toEqual([deviation.breaks])
    expect(run.code).toBe(1)
    const rule = run.json.rules.find((r: any) => r.id === deviation.breaks)
    // The report names the rule, its link in docs/contract.md, the request, what came back and the sentence of interface.md.
    expect(run.out).toMatch(new RegExp(`^FAIL  ${deviation.breaks} `, 'm'))
    expect(rule.link).toMatch(/docs\/contract\.md#[a-z-]+$/)
    expect(run.out).toContain(`rule: ${rule.link}`)
    expect(rule.failures[0].message).toBeTruthy()
    expect(rule.failures[0].source).toMatchObject({ kind: 'interface', ref: expect.stringMatching(/^interface\.md#[a-z0-9-]+$/), quote: expect.any(String) })
    expect(run.out).toContain(`source:   ${rule.failures[0].source.ref} (`)
    expect(run.junit).toContain(`name="${deviation.breaks}: `)
    expect(run.junit).toMatch(/<failure message="[^"]+" type="interface">/)
  }, 240_000)

  test.each(byKind('difference'))('with %s (a gap filled otherwise than the reference), it lists the difference under its rule and its decision, and exits 0', async (name, deviation) => {
    const first = await runs.get(name)!
    const run = await conclusive(first, deviation)
    expect(failed(run), run.out).toEqual([])
    expect(differing(run), run.out).toEqual([deviation.breaks])
    expect(run.code).toBe(0)
    const rule = run.json.rules.find((r: any) => r.id === deviation.breaks)
    expect(rule.differences[0].source).toMatchObject({ kind: 'decision', ref: expect.stringMatching(/^D\d+$/) })
    expect(run.out).toMatch(new RegExp(`^DIFF  ${deviation.breaks} `, 'm'))
    expect(run.out).toContain(`- difference from the reference: ${rule.differences[0].message}`)
    expect(run.out).toMatch(/^differences from the reference \(D\d+\): listed, not failed/m)
    expect(run.junit).toMatch(new RegExp(`name="${deviation.breaks}: [^"]*"[^>]*>\\s*<properties>.*</properties>\\s*<system-out>difference from the reference: `))
  }, 240_000)

  test('every JUnit report is well-formed XML with one testcase per rule', async () => {
    // jsdom ships no types; its XML parser reports a malformed document as a <parsererror>.
    const jsdom = 'jsdom'
    const { JSDOM } = (await import(jsdom)) as { JSDOM: new () => { window: { DOMParser: new () => DOMParser } } }
    const parser = new new JSDOM().window.DOMParser()
    for (const [name, promise] of runs) {
      const run = await promise
      const doc = parser.parseFromString(run.junit, 'application/xml')
      expect(doc.getElementsByTagName('parsererror').length, name).toBe(0)
      expect(doc.getElementsByTagName('testcase').length, name).toBe(run.json.rules.length)
      expect(doc.getElementsByTagName('failure').length, name).toBe(run.json.summary.fail)
      expect(doc.getElementsByTagName('skipped').length, name).toBe(run.json.summary.skip)
    }
  }, 240_000)

  test('no key appears in the output or the reports, failures included', async () => {
    for (const [name, promise] of runs) {
      const run = await promise
      for (const key of Object.values(KEYS)) {
        for (const [what, text] of [['stdout', run.out], ['stderr', run.err], ['json', JSON.stringify(run.json)], ['junit', run.junit]] as const) {
          expect(text.includes(key), `${key} in ${what} of ${name}`).toBe(false)
        }
      }
    }
  }, 240_000)
})
