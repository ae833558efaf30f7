import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ServiceVariantName } from '../../mocks/index.js'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { formatTimestamp } from '../../src/contract/index.js'
import { duckRows } from '../export/sinks/parquet-reader.js'
import { sqliteRows } from '../export/sinks/read-output.js'
import { exportInProcess } from '../export/export-in-process.js'

/*
 * `market-candles export` against every variant of the reference (SERVICE_VARIANTS) over the real
 * HTTP server (each run in process, exportInProcess: the CLI's own run without a process start), with resume: a first run up to the deployment's now, its clock moved 6 hours, the
 * same command again. What lands in the file must not depend on how the deployment fills the gaps
 * of interface.md (D13): it equals the reference's export of the same range. One server, one
 * session per run (its own clock and rate windows). The variants that change records each write one
 * format (the timestamp forms each into a different one); a text error body meets a refusal; the
 * variants without RateLimit-* headers meet an export past the limit. PostgreSQL with resume against
 * python-stack, the deployment issue 34 met, is test/export/other-deployments.test.ts's (one
 * PostgreSQL server less to start here).
 */

type Format = 'sqlite' | 'csv' | 'jsonl' | 'parquet'
const FORMATS: Format[] = ['sqlite', 'csv', 'jsonl', 'parquet']
const HOUR = 3_600_000
const NOW = Date.parse('2026-01-01T00:00:00Z')
const ARGS = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--start', formatTimestamp(NOW - 48 * HOUR)]

/**
 * Which format each variant that changes the records writes, with resume: each timestamp form into
 * another format (a line format keeps the text as the SDK hands it on; a table or a dataset stores it).
 */
const RUNS: Array<[ServiceVariantName, Format]> = [
  ['timestamps-offset', 'sqlite'],
  ['timestamps-micro', 'csv'],
  ['timestamps-millis', 'jsonl'],
  ['null-fields-omitted', 'parquet'],
  ['extra-fields', 'jsonl'],
  ['python-stack', 'jsonl'],
]
/**
 * The variants whose refusal of an export differs from the reference's: a plan's 403 as text, not
 * JSON. (pydantic-v1 and detail-string write a 403 as the reference does, `{"detail": "..."}`; their
 * 422s, which an export cannot provoke, are read in sdk-matrix.test.ts.)
 */
const ERRORS: ServiceVariantName[] = ['errors-text']
/** The variants without RateLimit-* headers: an export sent faster than the limit still gets every candle. */
const RATES: ServiceVariantName[] = ['rate-limit-retry-after', 'rate-limit-none']

let server: RunningMockServer
/** The same service with a limit of 3 requests a second: an export at its default 10 meets 429s. */
let strict: RunningMockServer
let dir: string
const truths = new Map<Format, Promise<unknown>>()

beforeAll(async () => {
  ;[server, strict] = await Promise.all([startMockServer({ port: 0, now: NOW, clockRate: 0 }), startMockServer({ port: 0, now: NOW, clockRate: 0, rateLimit: { perSecond: 1 } })])
  dir = mkdtempSync(join(tmpdir(), 'variant-export-'))
})
afterAll(async () => {
  await Promise.all([server.close(), strict.close()])
  rmSync(dir, { recursive: true, force: true })
})

const envOf = (session: string) => ({ MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: `${server.url}/_sessions/${session}` })
const outOf = (name: string, format: Format) => join(dir, format === 'parquet' ? `${name}-parquet` : `${name}.${format}`)
const formatArgs = (format: Format) => (format === 'parquet' ? ['--format', 'parquet'] : [])

/** What a test compares of an output: the text of a line format, the rows of a table or a dataset. */
async function contentOf(out: string, format: Format): Promise<unknown> {
  if (format === 'sqlite') return sqliteRows(out, 'exchange_candles')
  if (format === 'parquet') return duckRows(out, 'exchange')
  return readFileSync(out, 'utf8')
}

/** The reference's export of the whole range in one run (once per format). */
function truthOf(format: Format): Promise<unknown> {
  let truth = truths.get(format)
  if (!truth) {
    truth = (async () => {
      const session = `truth-${format}`
      server.service.session(session).clock.set(NOW + 6 * HOUR)
      const out = outOf(session, format)
      const r = await exportInProcess([...ARGS, '--out', out, '--quiet', ...formatArgs(format)], envOf(session))
      expect(r.code, r.stderr).toBe(0)
      return contentOf(out, format)
    })()
    truths.set(format, truth)
  }
  return truth
}

/** Exports up to the session's now, moves its clock 6 hours over HTTP, runs the same command again. */
async function exportWithResume(session: string, out: string, extra: string[]): Promise<void> {
  const env = envOf(session)
  const first = await exportInProcess([...ARGS, '--out', out, '--quiet', ...extra], env)
  expect(first.code, first.stderr).toBe(0)
  const moved = await fetch(`${server.url}/_sessions/${session}/_mock/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: 6 * HOUR }) })
  expect(moved.status).toBe(200)
  const again = await exportInProcess([...ARGS, '--out', out, ...extra], env)
  expect(again.code, again.stderr).toBe(0)
  // Only what closed since: the resume found the file's last close_ts, whatever form the deployment wrote.
  expect(again.stderr).toMatch(/done: 1 series, 6 candles in 1 page,/)
}

describe.concurrent('market-candles export against the variants of the reference', () => {
  test.each(RUNS)('into each format with resume: the same output as from the reference (%s → %s)', async (name, format) => {
    const session = `${name}-${format}`
    server.service.session(session, { variant: name })
    const out = outOf(session, format)
    await exportWithResume(session, out, formatArgs(format))
    expect(await contentOf(out, format)).toEqual(await truthOf(format))
  }, 120_000)

  test.each(ERRORS)('a refusal stops the export with exit 1 and the deployment\'s own detail, even not as JSON (%s)', async (name) => {
    const session = `${name}-refused`
    server.service.session(session, { variant: name })
    const r = await exportInProcess([...ARGS, '--start', formatTimestamp(NOW - 60 * 24 * HOUR), '--out', join(dir, `${session}.csv`)], { ...envOf(session), MARKET_CANDLES_API_KEY: 'demo-free-key' })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("history depth of plan 'free'")
  }, 60_000)

  test.each(RATES)('past the limit, with no RateLimit-* header to learn from: every candle once, as from the reference (%s)', async (name) => {
    // 8 pages of 1m candles at the export's default 10 requests a second, against a limit of 1: two
    // pages within a second meet the limit even on a loaded machine.
    const args = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--start', formatTimestamp(NOW - 8000 * 60_000 + 60_000), '--end', formatTimestamp(NOW), '--quiet']
    const session = `${name}-limited`
    strict.service.session(session, { variant: name })
    const out = join(dir, `${session}.sqlite`)
    const r = await exportInProcess([...args, '--out', out], { ...envOf(session), MARKET_CANDLES_BASE_URL: `${strict.url}/_sessions/${session}` })
    expect(r.code, r.stderr).toBe(0)
    expect(strict.service.session(session).requests({ status: 429 }).length).toBeGreaterThan(0)
    expect(sqliteRows(out, 'exchange_candles')).toEqual(await fastTruth(args))
  }, 120_000)
})

let fast: Promise<unknown> | undefined
/** The reference's export of the 1m range (once). */
function fastTruth(args: string[]): Promise<unknown> {
  fast ??= (async () => {
    const out = join(dir, 'truth-fast.sqlite')
    const r = await exportInProcess([...args, '--out', out], envOf('truth-fast'))
    expect(r.code, r.stderr).toBe(0)
    return sqliteRows(out, 'exchange_candles')
  })()
  return fast
}
