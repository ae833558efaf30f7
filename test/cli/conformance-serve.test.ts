import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { cliInProcess } from './cli-in-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const DIR = mkdtempSync(join(tmpdir(), 'conformance-serve-'))
const KEYS = { main: 'demo-enterprise-key', free: 'demo-free-key', pro: 'demo-pro-key', enterprise: 'demo-enterprise-key-2' }
for (const [name, key] of Object.entries(KEYS)) writeFileSync(join(DIR, name), `${key}\n`)
const PLAN_FLAGS = ['free', 'pro', 'enterprise'].flatMap((p) => ['--key-file', `${p}=${join(DIR, p)}`])

/** Runs the built CLI to its exit. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const [code] = await once(child, 'exit')
  return { code: code as number, stdout, stderr }
}

describe('market-candles conformance against `market-candles serve` (the built CLI, every demo plan\'s key given)', () => {
  let serve: ReturnType<typeof spawn>
  let url: string
  beforeAll(async () => {
    serve = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--now', '2025-01-01T00:00:00Z'], { stdio: ['ignore', 'pipe', 'inherit'] })
    url = await new Promise<string>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error('serve printed no URL in 15 s')), 15_000)
      serve.stdout!.on('data', (d) => {
        out += d
        const line = /^listening on (\S+)$/m.exec(out)
        if (line) {
          clearTimeout(timer)
          resolve(line[1]!)
        }
      })
    })
  })
  afterAll(async () => {
    serve.kill('SIGTERM')
    if (serve.exitCode === null) await once(serve, 'exit')
    rmSync(DIR, { recursive: true, force: true })
  })

  test('every rule passes within the budget; exit 0; the JUnit and JSON reports hold every rule; no key is printed', async () => {
    const junit = join(DIR, 'report.xml')
    const json = join(DIR, 'report.json')
    const started = performance.now()
    const run = await cli(['conformance', '--base-url', url, '--api-key-file', join(DIR, 'main'), ...PLAN_FLAGS, '--junit', junit, '--json', json])
    const seconds = (performance.now() - started) / 1000
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const report = JSON.parse(readFileSync(json, 'utf8'))
    expect(report.summary).toEqual({ pass: report.rules.length, fail: 0, differ: 0, skip: 0 })
    expect(report.rules.length).toBeGreaterThanOrEqual(20)
    expect(report.requests.used).toBeLessThanOrEqual(report.requests.budget)
    expect(run.stdout).toContain(`${report.rules.length} rules: ${report.rules.length} passed, 0 failed, 0 differ from the reference, 0 skipped`)
    expect(run.stdout).toContain(`${report.requests.used} requests of a budget of ${report.requests.budget} (${report.requests.counted} counted as candle calls)`)
    const xml = readFileSync(junit, 'utf8')
    expect(xml.match(/<testcase /g)).toHaveLength(report.rules.length)
    expect(xml).toMatch(/<testsuites [^>]*failures="0"/)
    for (const key of Object.values(KEYS)) for (const text of [run.stdout, run.stderr, xml, JSON.stringify(report)]) expect(text).not.toContain(key)
    // The time is reported, not asserted: the pacing (8 counted requests a second) sets it.
    console.log(`conformance against serve: ${report.rules.length} rules, ${report.requests.used} requests, ${seconds.toFixed(1)} s`)
  }, 180_000)

  test('a key from MARKET_CANDLES_API_KEY is used and never printed, even in a failure', async () => {
    const run = await cli(['conformance', '--base-url', url, '--only', 'auth-401', '--only', 'start-anchor'], { MARKET_CANDLES_API_KEY: 'demo-pro-key' })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^PASS  start-anchor /m)
    expect(run.stdout + run.stderr).not.toContain('demo-pro-key')
  }, 60_000)
})

describe('market-candles conformance: usage and unreachable services', () => {
  test.each([
    [['conformance'], /--base-url \(or MARKET_CANDLES_BASE_URL\) is required/],
    [['conformance', '--base-url', 'ftp://x'], /must be an http or https URL/],
    [['conformance', '--base-url', 'https://user:secret@candles.example.com'], /must not carry credentials/],
    [['conformance', '--base-url', 'http://127.0.0.1:1', '--key-file', 'gold=/nowhere'], /unknown plan 'gold'/],
    [['conformance', '--base-url', 'http://127.0.0.1:1', '--key-file', 'free'], /PLAN=FILE/],
    [['conformance', '--base-url', 'http://127.0.0.1:1', '--max-requests', '0'], /--max-requests must be an integer from 1/],
    [['conformance', '--base-url', 'http://127.0.0.1:1', '--rate', '101'], /--rate must be an integer from 1 to 100, got '101'/],
    [['conformance', '--base-url', 'http://127.0.0.1:1', '--include', 'everything'], /unknown opt-in rule 'everything'/],
    [['conformance', '--base-url', 'http://127.0.0.1:1', '--api-key-file', '/nowhere/key.txt'], /cannot read --api-key-file \/nowhere\/key.txt/],
    [['conformance', '--bogus'], /Unknown option '--bogus'/],
  ])('%j is bad usage: exit 2 with the reason and the usage', async (args, reason) => {
    // In process (what the bin runs): the built CLI as a process is the next test's.
    const run = await cliInProcess(args)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(reason)
    expect(run.stderr).toContain('Usage: market-candles conformance')
    expect(run.stderr).not.toContain('secret')
  })

  test('bad usage over the command line (the built CLI): the process exits 2 with the reason and the usage on stderr', async () => {
    const run = await cli(['conformance', '--base-url', 'https://user:secret@candles.example.com'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^market-candles conformance: .*must not carry credentials/)
    expect(run.stderr).toContain('Usage: market-candles conformance')
    expect(run.stderr).not.toContain('secret')
  })

  test('a service that does not answer: exit 1 with one clear line', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer().listen(0, '127.0.0.1')
    await once(probe, 'listening')
    const { port } = probe.address() as AddressInfo
    await new Promise((resolve) => probe.close(resolve))
    const run = await cli(['conformance', '--base-url', `http://127.0.0.1:${port}`, '--timeout', '2000'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port} does not answer: GET /v1/exchanges .*no answer \\(ECONNREFUSED\\)`))
  })
})
