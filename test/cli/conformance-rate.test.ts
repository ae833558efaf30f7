import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parseConformanceArgs, runConformance } from '../../cli/conformance/index.js'
import { createMockService } from '../../mocks/index.js'
import { startMockServer } from '../../mocks/server/index.js'

const DIR = mkdtempSync(join(tmpdir(), 'conformance-rate-'))
writeFileSync(join(DIR, 'key'), 'demo-enterprise-key\n')
afterAll(() => rmSync(DIR, { recursive: true, force: true }))

/**
 * Runs the command against a fresh reference service over HTTP and reads back, from the service's
 * own request journal (GET /_mock/requests), when each request arrived.
 */
async function runWithJournal(flags: string[]) {
  const server = await startMockServer({ port: 0, service: createMockService({ now: '2025-01-01T00:00:00Z' }) })
  try {
    const out: string[] = []
    const json = join(DIR, `${flags.join('_').replace(/\W+/g, '-')}.json`)
    const code = await runConformance(['--base-url', server.url, '--api-key-file', join(DIR, 'key'), '--json', json, ...flags], { out: (l) => out.push(l), err: (l) => out.push(l), env: {} })
    const res = await fetch(`${server.url}/_mock/requests`)
    const entries = (await res.json()) as Array<{ path: string; time: { wall: string } }>
    return { code, out: out.join('\n'), report: JSON.parse(readFileSync(json, 'utf8')), arrivals: entries.map((e) => Date.parse(e.time.wall)).sort((a, b) => a - b) }
  } finally {
    await server.close()
  }
}

/** The most requests that arrived within any one second (a window [t, t + 1000 ms)). */
function busiestSecond(arrivals: readonly number[]): number {
  let most = 0
  for (let i = 0, j = 0; i < arrivals.length; i++) {
    while (arrivals[j]! <= arrivals[i]! - 1000) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

describe('market-candles conformance --rate N', () => {
  test('--rate is an integer from 1 to 100; anything else is a usage error saying so', () => {
    expect(parseConformanceArgs(['--base-url', 'http://127.0.0.1:1', '--rate', '3']).rate).toBe(3)
    expect(parseConformanceArgs(['--base-url', 'http://127.0.0.1:1']).rate).toBeUndefined()
    for (const bad of ['0', '101', '2.5', 'ten', '-1', '']) {
      expect(() => parseConformanceArgs(['--base-url', 'http://127.0.0.1:1', `--rate=${bad}`]), bad).toThrow(`--rate must be an integer from 1 to 100, got '${bad}'`)
    }
  })

  test('paces every request, catalog and candle calls alike: the service never sees more than N in one second', async () => {
    const run = await runWithJournal(['--rate', '3', '--only', 'catalog-order', '--only', 'start-anchor', '--only', 'catalog-not-counted'])
    expect(run.arrivals.length).toBe(run.report.requests.used)
    expect(run.arrivals.length).toBeGreaterThan(10)
    // Catalog calls alone go 20 a second without --rate: the run pressed against the cap, and kept it.
    expect(busiestSecond(run.arrivals), run.arrivals.join(' ')).toBe(3)
    const verdicts = Object.fromEntries(run.report.rules.map((r: any) => [r.id, r.verdict]))
    expect(verdicts, run.out).toEqual({ 'catalog-order': 'pass', 'start-anchor': 'pass', 'catalog-not-counted': 'skip' })
    // Seven calls within one second cannot be sent at 3 a second: skipped, saying why.
    expect(run.out).toMatch(/skipped: --rate 3 allows 3 requests in a second; this rule needs 7 within one/)
  }, 60_000)

  test("the rules' unpaced bursts keep within N too (the opt-in rate-limit burst of 20 at --rate 11)", async () => {
    const run = await runWithJournal(['--rate', '11', '--include', 'rate-limit', '--only', 'rate-limit'])
    expect(run.arrivals.length).toBe(run.report.requests.used)
    const busiest = busiestSecond(run.arrivals)
    expect(busiest, run.arrivals.join(' ')).toBeLessThanOrEqual(11)
    // More than the 8 candle calls a second of the default pacing: the burst reached the cap.
    expect(busiest, run.arrivals.join(' ')).toBeGreaterThan(8)
    expect(run.report.rules[0].verdict, run.out).not.toBe('fail')
  }, 60_000)
})
