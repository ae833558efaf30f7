import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'
import { aggregatedCandleSchema, createClient, exchangeCandleSchema } from '../../../src/index.js'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS } from '../../../cli/export/sinks/index.js'
import { asStoredRow, csvFile, jsonLines, sqliteRows } from './read-output.js'
import { exportInProcess } from '../export-in-process.js'

// Each export runs in process (exportInProcess): this file checks what each format holds; the CLI as a
// process is the other export files' (7.3 -> 3.5 s of CPU alone, 2026-11-29).
const NOW = '2025-01-01T00:00:00Z'
const KEY = 'demo-enterprise-key'
let server: RunningMockServer
let dir: string
let env: Record<string, string>

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: NOW })
  dir = mkdtempSync(join(tmpdir(), 'export-formats-'))
  env = { MARKET_CANDLES_API_KEY: KEY, MARKET_CANDLES_BASE_URL: server.url }
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

const client = () => createClient({ apiKey: KEY, baseUrl: server.url })

async function sdkCandles(kind: 'exchange' | 'aggregated', base: string, quote: string, interval: '1h' | '1d', start: string, end: string) {
  const out: object[] = []
  const walk =
    kind === 'exchange'
      ? client().exchangeOhlcvCandles({ exchange: 'bitstamp', interval, base, quote, start, end })
      : client().aggregatedOhlcvCandles({ interval, base, quote, start, end })
  for await (const c of walk) out.push(c)
  return out
}

describe('market-candles export: formats', () => {
  test('a stored SQLite table equals the SDK walk of the same range (several pairs, 1h, pages of 1000)', async () => {
    const out = join(dir, 'candles.sqlite')
    const r = await exportInProcess(['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--pair', 'ETH/USD', '--interval', '1h', '--start', '2024-10-01', '--end', '2024-12-01', '--out', out], env)
    expect(r.stderr).toMatch(/export: done: 2 series/)
    expect(r.code).toBe(0)
    const expected = [
      ...(await sdkCandles('exchange', 'BTC', 'USD', '1h', '2024-10-01', '2024-12-01')),
      ...(await sdkCandles('exchange', 'ETH', 'USD', '1h', '2024-10-01', '2024-12-01')),
    ].map(asStoredRow)
    expect(expected.length).toBeGreaterThan(2 * 1000) // more than one page per series
    expect(sqliteRows(out, 'exchange_candles')).toEqual(expected)
  })

  test('aggregated candles go to aggregated_candles, exchanges stored as JSON text, the method named', async () => {
    const out = join(dir, 'agg.db')
    const r = await exportInProcess(['--aggregated', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2022-06-01', '--end', '2023-01-01', '--out', out], env)
    expect(r.code).toBe(0)
    const rows = sqliteRows(out, 'aggregated_candles')
    expect(rows).toEqual((await sdkCandles('aggregated', 'BTC', 'USD', '1d', '2022-06-01', '2023-01-01')).map(asStoredRow))
    expect(rows[0]!.method).toBe('omm_vwap_v1')
    // ftx closed in November 2022: both exchanges contribute before it, bitstamp alone after
    expect(JSON.parse(rows[0]!.exchanges as string)).toEqual(['bitstamp', 'ftx'])
    expect(JSON.parse(rows.at(-1)!.exchanges as string)).toEqual(['bitstamp'])
  })

  test('CSV: a header row, the documented column order, one row per candle, RFC 4180 quoting', async () => {
    const out = join(dir, 'agg.csv')
    const r = await exportInProcess(['--aggregated', '--method', 'omm_vwap_v1', '--pair', 'BTC/USD', '--pair', 'ETH/USD', '--interval', '1h', '--start', '2024-12-20', '--end', '2024-12-22', '--out', out], env)
    expect(r.code).toBe(0)
    const { header, rows } = csvFile(out)
    expect(header).toEqual([...AGGREGATED_COLUMNS])
    const expected = [
      ...(await sdkCandles('aggregated', 'BTC', 'USD', '1h', '2024-12-20', '2024-12-22')),
      ...(await sdkCandles('aggregated', 'ETH', 'USD', '1h', '2024-12-20', '2024-12-22')),
    ] as Array<Record<string, unknown>>
    expect(rows).toEqual(expected.map((c) => AGGREGATED_COLUMNS.map((k) => (k === 'exchanges' ? JSON.stringify(c[k]) : c[k] === null ? '' : String(c[k])))))
    expect(csvFile(out).text).toContain(',"[""bitstamp""]",')
  })

  test('JSON Lines on stdout: one candle object per line exactly as the API returns it; progress stays on stderr', async () => {
    const r = await exportInProcess(['--exchange', 'bitstamp', '--all-pairs', '--interval', '1d', '--start', '2024-12-25', '--end', '2024-12-27', '--out', '-', '--format', 'jsonl'], env)
    expect(r.code).toBe(0)
    const pairs = (await (await fetch(`${server.url}/v1/exchange_pairs?exchange=bitstamp&interval=1d`)).json()) as Array<{ base: string; quote: string }>
    const raw: unknown[] = []
    for (const p of pairs) {
      // Another account's key: the export has just used this account's rate window.
      const res = await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1d&base=${p.base}&quote=${p.quote}&start=2024-12-25&end=2024-12-27`, { headers: { 'X-API-Key': 'demo-pro-key' } })
      expect(res.status).toBe(200)
      raw.push(...((await res.json()) as unknown[]))
    }
    expect(raw.length).toBeGreaterThanOrEqual(pairs.length * 2)
    expect(r.stdout).toBe(raw.map((c) => JSON.stringify(c)).join('\n') + '\n')
    expect(r.stderr).toMatch(/export: done: \d+ series/)
    expect(r.stderr).not.toContain('"close_ts"')
  })

  test('CSV on stdout with --format csv; exchange columns in the documented order', async () => {
    const r = await exportInProcess(['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2024-12-30', '--out', '-', '--format', 'csv', '--quiet'], env)
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(EXCHANGE_COLUMNS.join(','))
    expect(lines.slice(1).map((l) => l.split(',')[4])).toEqual(['2024-12-30T00:00:00Z', '2024-12-31T00:00:00Z', '2025-01-01T00:00:00Z'])
  })

  test('without --start, a series starts at the first candle the catalog lists', async () => {
    const out = join(dir, 'first.jsonl')
    const r = await exportInProcess(['--exchange', 'bitstamp', '--pair', 'ADA/EUR', '--interval', '1d', '--out', out, '--quiet'], env)
    expect(r.code).toBe(0)
    const pairs = (await client().exchangePairs({ exchange: 'bitstamp', interval: '1d' })).find((p) => p.base === 'ADA' && p.quote === 'EUR')!
    const lines = jsonLines(readFileSync(out, 'utf8'))
    expect(lines[0]!.close_ts).toBe(pairs.first_close_ts)
    expect(lines.at(-1)!.close_ts).toBe(pairs.last_close_ts)
  })

  test('--mock runs against the embedded reference service with a demo key, no key or URL needed', async () => {
    const r = await exportInProcess(['--mock', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2024-01-01', '--end', '2024-01-05', '--out', '-', '--format', 'csv'], {})
    expect(r.code).toBe(0)
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1 + 5)
    expect(r.stderr).toContain('embedded reference service')
  })
})

describe('market-candles export: columns', () => {
  // The file layout is a promise to users, so it is written out; this catches a resource field the
  // layout would silently drop.
  test('CSV and SQLite columns are the resource\'s fields, in the order the API returns them', () => {
    expect([...EXCHANGE_COLUMNS]).toEqual(Object.keys(exchangeCandleSchema.shape))
    expect([...AGGREGATED_COLUMNS]).toEqual(Object.keys(aggregatedCandleSchema.shape))
  })
})
