import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { resample, type ExchangeCandle } from '../../src/index.js'
import { EXPLICIT_NOW, explicitDataset } from '../support/fixtures.js'
import { jsonLines, sqliteRows } from './sinks/read-output.js'
import { exportInProcess } from './export-in-process.js'

// Each export runs in process (exportInProcess): this file checks coverage, the report and the resampled
// output, not the process around them (9.0 -> 3.6 s of CPU alone, 2026-11-29).
let server: RunningMockServer
let dir: string
let env: Record<string, string>

beforeAll(async () => {
  // alpha BTC/USD 1h: 2024-01-01T01:00Z .. 2024-01-06T00:00Z, without hours 5-7, 20, 41-42 and 99
  server = await startMockServer({ port: 0, data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
  dir = mkdtempSync(join(tmpdir(), 'export-coverage-'))
  env = { MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: server.url }
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

const ALPHA = ['--exchange', 'alpha', '--pair', 'BTC/USD', '--pair', 'ETH/USD', '--interval', '1h', '--rate-limit', 'off', '--progress-interval', '60']
const GAPS = [
  { from: '2024-01-01T05:00:00Z', to: '2024-01-01T07:00:00Z', missing: 3 },
  { from: '2024-01-01T20:00:00Z', to: '2024-01-01T20:00:00Z', missing: 1 },
  { from: '2024-01-02T17:00:00Z', to: '2024-01-02T18:00:00Z', missing: 2 },
  { from: '2024-01-05T03:00:00Z', to: '2024-01-05T03:00:00Z', missing: 1 },
]

describe('market-candles export: coverage that tells the truth', () => {
  test('each series ends with one line: candles stored, expected, gaps (the largest named); --report FILE.json says the same per series', async () => {
    const out = join(dir, 'cov.sqlite')
    const report = join(dir, 'cov.json')
    const r = await exportInProcess([...ALPHA, '--out', out, '--report', report], env)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('export: alpha BTC/USD 1h: 113 candles stored, 120 expected, 7 missing in 4 gaps, the largest 2024-01-01T05:00:00Z to 2024-01-01T07:00:00Z (3 candles)\n')
    expect(r.stderr).toContain('export: alpha ETH/USD 1h: 113 candles stored, 120 expected, 7 missing in 4 gaps, the largest')
    const json = JSON.parse(readFileSync(report, 'utf8'))
    expect(json.series[0]).toEqual({
      exchange: 'alpha', base: 'BTC', quote: 'USD', interval: '1h', stored_interval: '1h', stored: 113,
      from: '2024-01-01T01:00:00Z', to: '2024-01-06T00:00:00Z', expected: 120, received: 113, missing: 7, complete: true, gaps: GAPS,
    })
    expect(json.series).toHaveLength(2)
    expect(readFileSync(report, 'utf8')).not.toContain('demo-enterprise-key') // the key is in no output
    expect(r.stderr).not.toContain('demo-enterprise-key')

    const again = await exportInProcess([...ALPHA, '--out', out, '--report', report], env)
    expect(again.stderr).toContain('export: alpha BTC/USD 1h: 0 candles stored, nothing new in range')
    expect(JSON.parse(readFileSync(report, 'utf8')).series[0]).toMatchObject({ stored: 0, expected: 0, gaps: [] })
  }, 30_000)

  test('a series without gaps says so', async () => {
    const r = await exportInProcess([...ALPHA, '--start', '2024-01-03', '--end', '2024-01-04', '--out', join(dir, 'nogap.csv')], env)
    expect(r.stderr).toContain('export: alpha BTC/USD 1h: 25 candles stored, 25 expected, no gaps')
  }, 30_000)
})

describe('market-candles export --resample', () => {
  const stripped = (c: object) => {
    const { source_candles: _n, source_expected: _e, complete: _c, final: _f, ...rest } = c as Record<string, unknown>
    return rest
  }

  test('--resample 4h stores the candles resample() builds from the exported ones (any format), and its coverage counts the source candles', async () => {
    const db = join(dir, 'source.sqlite')
    expect((await exportInProcess([...ALPHA, '--out', db, '--quiet'], env)).code).toBe(0)
    const source = sqliteRows(db, 'exchange_candles') as unknown as ExchangeCandle[]
    const expected = ['BTC', 'ETH'].flatMap((base) => [...resample(source.filter((c) => c.base === base), '4h')].map(stripped))
    const out = join(dir, 'four.jsonl')
    const r = await exportInProcess([...ALPHA, '--resample', '4h', '--out', out], env)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('export: alpha BTC/USD 1h → 4h: 30 candles stored from 113 1h candles, 120 1h expected, 7 missing in 4 gaps')
    expect(jsonLines(readFileSync(out, 'utf8'))).toEqual(expected)
  }, 30_000)

  test('a resampled export resumes: a bucket the range does not cover whole is left to the next run, never stored twice', async () => {
    const full = join(dir, 'full.sqlite')
    expect((await exportInProcess([...ALPHA, '--resample', '4h', '--out', full, '--quiet'], env)).code).toBe(0)
    const out = join(dir, 'resumed.sqlite')
    // Starts and ends inside a bucket: neither partial bucket is stored.
    const first = await exportInProcess([...ALPHA, '--resample', '4h', '--start', '2024-01-02T02:00:00Z', '--end', '2024-01-03T02:00:00Z', '--out', out, '--quiet'], env)
    expect(first.code).toBe(0)
    const part = sqliteRows(out, 'exchange_candles').map((r) => r.close_ts)
    expect(part.slice(0, 2)).toEqual(['2024-01-02T08:00:00Z', '2024-01-02T12:00:00Z'])
    expect(part.at(-1)).toBe('2024-01-03T00:00:00Z')
    expect((await exportInProcess([...ALPHA, '--resample', '4h', '--start', '2024-01-02T05:00:00Z', '--out', out, '--quiet'], env)).code).toBe(0)
    const got = sqliteRows(out, 'exchange_candles')
    expect(got).toEqual(sqliteRows(full, 'exchange_candles').filter((r) => String(r.close_ts) >= '2024-01-02T08:00:00Z'))
  }, 30_000)

  test('a --resample that is not an interval, or not a whole multiple of --interval, is a usage error', async () => {
    const notMultiple = await exportInProcess([...ALPHA, '--resample', '90m', '--out', join(dir, 'x.csv')], env)
    expect(notMultiple.code).toBe(2)
    expect(notMultiple.stderr).toContain('--resample 90m is not a whole multiple of --interval 1h')
    const bad = await exportInProcess([...ALPHA, '--resample', '15x', '--out', join(dir, 'x.csv')], env)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--resample: '15x' is not an interval")
  }, 30_000)
})
