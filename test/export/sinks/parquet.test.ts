import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'
import { duckRowGroups, duckRows, duckSchema } from './parquet-reader.js'
import { sqliteRows } from './read-output.js'
import { runCli, startCli, waitFor } from '../run-cli.js'
import { exportInProcess } from '../export-in-process.js'

// The runs that check what lands in the dataset run in process (exportInProcess); those a signal
// stops, and the same command after them, are the built CLI as a process (runCli, startCli).
const NOW = '2025-01-01T00:00:00Z'
let server: RunningMockServer
let dir: string
let env: Record<string, string>

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: NOW, rateLimit: false })
  dir = mkdtempSync(join(tmpdir(), 'export-parquet-'))
  env = { MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: server.url }
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

// SQLite's row, as DuckDB reads the Parquet one: exchanges as a list.
const fromSqlite = (rows: Record<string, unknown>[]) => rows.map((r) => ('exchanges' in r ? { ...r, exchanges: JSON.parse(String(r.exchanges)) } : r))

const SERIES = {
  exchange: ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--pair', 'ETH/USD', '--interval', '1h', '--start', '2024-01-01', '--end', '2024-03-31'],
  aggregated: ['--aggregated', '--pair', 'BTC/USD', '--pair', 'ETH/USD', '--interval', '1h', '--start', '2024-01-01', '--end', '2024-03-31'],
} as const

describe('market-candles export --format parquet', () => {
  test.each(['exchange', 'aggregated'] as const)('an independent reader (DuckDB) reads back every row of the SQLite export of the same range (%s)', async (kind) => {
    const out = join(dir, `same-${kind}`)
    const db = join(dir, `same-${kind}.sqlite`)
    const args = [...SERIES[kind], '--rate-limit', 'off', '--quiet']
    expect((await exportInProcess([...args, '--out', out, '--format', 'parquet'], env)).code).toBe(0)
    expect((await exportInProcess([...args, '--out', db], env)).code).toBe(0)
    const expected = fromSqlite(sqliteRows(db, kind === 'exchange' ? 'exchange_candles' : 'aggregated_candles'))
    expect(expected.length).toBeGreaterThan(4000)
    expect(await duckRows(out, kind)).toEqual(expected)
    // Hive partitions, one folder per series
    const source = kind === 'exchange' ? 'exchange=bitstamp' : 'method=omm_vwap_v1'
    expect(readdirSync(join(out, source, 'base=BTC', 'quote=USD', 'interval=1h'))).toEqual(['part-000000.parquet'])
  }, 60_000)

  test('typed columns: close_ts a UTC timestamp, prices and volumes doubles, exchanges a list of strings, flag nullable; Zstandard', async () => {
    const schema = await duckSchema(join(dir, 'same-aggregated'))
    expect(schema['duckdb:close_ts']!.type).toBe('TIMESTAMP WITH TIME ZONE')
    for (const name of ['open', 'high', 'low', 'close', 'base_volume', 'quote_volume']) expect(schema[`duckdb:${name}`]!.type).toBe('DOUBLE')
    expect(schema['duckdb:exchanges']!.type).toBe('VARCHAR[]')
    expect(schema['duckdb:flag']!.type).toBe('VARCHAR')
    expect(schema.flag!.nullable).toBe(true)
    expect(schema.close_ts!.nullable).toBe(false)
    const groups = await duckRowGroups(join(dir, 'same-exchange'))
    expect(new Set(groups.map((g) => g.compression))).toEqual(new Set(['ZSTD']))
  }, 30_000)

  test('--resample 4h stores resampled candles in the dataset, in the folder of the target interval', async () => {
    const out = join(dir, 'four')
    const db = join(dir, 'four.sqlite')
    const args = [...SERIES.exchange, '--resample', '4h', '--rate-limit', 'off', '--quiet']
    expect((await exportInProcess([...args, '--out', out, '--format', 'parquet'], env)).code).toBe(0)
    expect((await exportInProcess([...args, '--out', db], env)).code).toBe(0)
    const expected = sqliteRows(db, 'exchange_candles')
    expect(expected.length).toBeGreaterThan(1000)
    expect(expected.every((r) => r.interval === '4h')).toBe(true)
    expect(await duckRows(out, 'exchange')).toEqual(expected)
    expect(existsSync(join(out, 'exchange=bitstamp', 'base=ETH', 'quote=USD', 'interval=4h', 'part-000000.parquet'))).toBe(true)
  }, 60_000)

  test('--out - is refused for Parquet, and a path that is a file is a clear error', async () => {
    const r = await exportInProcess([...SERIES.exchange, '--out', '-', '--format', 'parquet'], env)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Parquet cannot be written to stdout')
    const file = join(dir, 'a-file')
    writeFileSync(file, 'not a directory')
    const f = await exportInProcess([...SERIES.exchange, '--out', file, '--format', 'parquet', '--quiet'], env)
    expect(f.code).toBe(1)
    expect(f.stderr).toMatch(/cannot use .*a-file as a Parquet dataset/)
  }, 30_000)
})

describe('market-candles export --format parquet: resume', () => {
  // 2 pairs × 7,501 1m candles in pages of 1,000, into parts of PART rows: several parts per series,
  // each filled in the middle of a page. 1,300 rows is no divisor of any multiple of 1,000 below
  // 13,000, so from a series' first part on there are always rows in hand, waiting for the next part.
  const RANGE = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--pair', 'ETH/USD', '--interval', '1m', '--start', '2024-01-01']
  const LONG = [...RANGE, '--end', '2024-01-06T05:00:00Z']
  const PER_SERIES = 7_501
  const PART = 1_300
  // About a second without a rate limit. The runs that are interrupted go at 4 requests a second
  // (about 4 s for the 15 pages): the first part comes with the first 4 pages, BTC/USD's last page a
  // second later, ETH/USD's another two, so a signal sent once the first part is there comes mid-run.
  const PACED = ['--rate-limit', '4']
  const parquet = (out: string, ...more: string[]) => ['--out', out, '--format', 'parquet', ...more]
  const parts = (n: number) => Array.from({ length: n }, (_, i) => `part-${String(i).padStart(6, '0')}.parquet`)
  const btcOf = (out: string) => join(out, 'exchange=bitstamp', 'base=BTC', 'quote=USD', 'interval=1m')
  /** Rows of each part file per series folder, in part order; every part must be one row group. */
  async function partRows(out: string): Promise<Record<string, number[]>> {
    const groups = await duckRowGroups(out)
    expect(new Set(groups.map((g) => g.file)).size).toBe(groups.length)
    const bySeries: Record<string, number[]> = {}
    for (const g of groups) (bySeries[/base=(\w+)/.exec(g.file)![1]!] ??= []).push(g.rows)
    return bySeries
  }
  let full: Record<string, unknown>[]

  /** Starts the long export into `out` at 4 requests a second, waits until BTC/USD's first part file is there, checks the run is still going. */
  async function startAndWaitForPart(out: string) {
    const btc = btcOf(out)
    const cli = startCli(['export', ...LONG, ...PACED, ...parquet(out, '--part-rows', String(PART)), '--quiet'], env, 120_000)
    await waitFor(() => existsSync(join(btc, 'part-000000.parquet')) || cli.child.exitCode !== null, 60_000, 'a first part file')
    expect(cli.child.exitCode).toBeNull() // the signal below comes mid-run
    return { cli, btc }
  }

  beforeAll(async () => {
    const db = join(dir, 'long.sqlite')
    expect((await exportInProcess([...LONG, '--rate-limit', 'off', '--out', db, '--quiet'], env)).code).toBe(0)
    full = sqliteRows(db, 'exchange_candles')
    expect(full.length).toBe(2 * PER_SERIES)
  }, 120_000)

  test('a rerun adds part files after the last stored candle of each series: never a duplicate', async () => {
    const out = join(dir, 'rerun')
    const first = [...RANGE, '--end', '2024-01-03', '--rate-limit', 'off', '--quiet', ...parquet(out, '--part-rows', String(PART))]
    const long = [...LONG, '--rate-limit', 'off', '--quiet', ...parquet(out, '--part-rows', String(PART))]
    expect((await exportInProcess([...first], env)).code).toBe(0)
    expect((await exportInProcess([...long], env)).code).toBe(0)
    expect((await exportInProcess([...long], env)).code).toBe(0) // nothing new
    expect(await duckRows(out, 'exchange')).toEqual(full)
    // 2,881 rows, then 4,620 more, each run's parts filled to PART rows
    expect(readdirSync(btcOf(out))).toEqual(parts(7))
    expect((await partRows(out)).BTC).toEqual([1300, 1300, 281, 1300, 1300, 1300, 720])
  }, 240_000)

  test('--part-rows 1000 writes parts of at most 1,000 rows, one row group each; a rerun with --part-rows 3000 continues them with no gap and no duplicate', async () => {
    const out = join(dir, 'part-rows')
    expect((await exportInProcess([...RANGE, '--end', '2024-01-03', '--rate-limit', 'off', '--quiet', ...parquet(out, '--part-rows', '1000')], env)).code).toBe(0)
    expect(await partRows(out)).toEqual({ BTC: [1000, 1000, 881], ETH: [1000, 1000, 881] })
    expect(await duckRows(out, 'exchange')).toEqual(full.filter((r) => String(r.close_ts) <= '2024-01-03T00:00:00Z'))
    expect((await exportInProcess([...LONG, '--rate-limit', 'off', '--quiet', ...parquet(out, '--part-rows', '3000')], env)).code).toBe(0)
    expect(await partRows(out)).toEqual({ BTC: [1000, 1000, 881, 3000, 1620], ETH: [1000, 1000, 881, 3000, 1620] })
    expect(await duckRows(out, 'exchange')).toEqual(full)
  }, 240_000)

  test('SIGINT writes the rows in hand as a last part and exits 130; the same command then completes with no gap and no duplicate', async () => {
    const out = join(dir, 'int')
    const { cli } = await startAndWaitForPart(out)
    cli.child.kill('SIGINT')
    const r = await cli.result
    expect(r.code).toBe(130)
    const partial = await duckRows(out, 'exchange')
    expect(partial.length).toBeGreaterThan(PART) // the first part, and the rows in hand
    expect(partial.length).toBeLessThan(full.length)
    expect(partial).toEqual(full.slice(0, partial.length))
    // Parts that filled hold a multiple of PART rows of the last series stored (a series' last part is
    // written when the next one's first page comes, or at the end): the rest is what SIGINT wrote.
    const last = partial.at(-1)!.base
    expect(partial.filter((row) => row.base === last).length % PART).toBeGreaterThan(0)
    expect((await runCli(['export', ...LONG, ...PACED, ...parquet(out, '--part-rows', String(PART)), '--quiet'], env, 120_000)).code).toBe(0)
    expect(await duckRows(out, 'exchange')).toEqual(full)
  }, 240_000)

  test('after SIGKILL mid-run, a rerun completes with no gap and no duplicate; a torn part file and a leftover temporary file are detected and replaced', async () => {
    const out = join(dir, 'kill')
    const { cli, btc } = await startAndWaitForPart(out)
    cli.child.kill('SIGKILL')
    expect((await cli.result).signal).toBe('SIGKILL')
    // What a kill during a write or a full disk leaves: a torn part after the whole ones, a temporary file.
    const whole = readdirSync(btc).filter((name) => name.endsWith('.parquet')).length
    const [torn, tmp] = parts(whole + 2).slice(whole)
    copyFileSync(join(btc, 'part-000000.parquet'), join(btc, torn!))
    truncateSync(join(btc, torn!), Math.floor(statSync(join(btc, 'part-000000.parquet')).size / 2))
    writeFileSync(join(btc, `${tmp}.tmp`), 'PAR1 half written')
    const again = await runCli(['export', ...LONG, ...PACED, ...parquet(out, '--part-rows', String(PART)), '--progress-interval', '60'], env, 120_000)
    expect(again.code).toBe(0)
    expect(again.stderr).toContain(`${torn}: an unfinished part file; its candles are fetched again`)
    expect(again.stderr).toContain(`${tmp}.tmp: an unfinished part file`)
    expect(await duckRows(out, 'exchange')).toEqual(full)
    expect(readdirSync(btc).some((name) => name.endsWith('.tmp'))).toBe(false)
  }, 240_000)
})
