import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { parseExportArgs } from '../../cli/export/flags/args.js'
import { exportInProcess } from './export-in-process.js'
import { runCli } from './run-cli.js'

// runExport as the CLI runs it, output thread and all: the messages and output these tests check.
const runInProcess = (argv: string[], env: Record<string, string>) => exportInProcess(argv, env, { sinkThread: true })

const NOW = '2025-01-01T00:00:00Z'
let server: RunningMockServer
let dir: string
let env: Record<string, string>

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: NOW, latency: 40 })
  dir = mkdtempSync(join(tmpdir(), 'export-flags-'))
  env = { MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: server.url }
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

const OK = ['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', 'x.csv']
const PARQUET = ['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', 'dir', '--format', 'parquet']
const PART_ROWS_RANGE = '--part-rows must be a whole number of rows from 1,000 to 1,000,000'

describe('market-candles export: bad flags print the usage and exit 2', () => {
  test.each([
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--out', 'x.csv'], 'give --interval'],
    [['export', '--pair', 'BTC/USD', '--interval', '1d', '--out', 'x.csv'], 'give --exchange NAME, or --aggregated'],
    [['export', '--exchange', 'bitstamp', '--interval', '1d', '--out', 'x.csv'], 'give --pair BASE/QUOTE (repeatable) or --all-pairs'],
    [[...OK, '--all-pairs'], '--pair and --all-pairs exclude each other'],
    [[...OK, '--aggregated'], '--exchange and --aggregated exclude each other'],
    [[...OK, '--method', 'omm_vwap_v1'], '--method applies to --aggregated only'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTCUSD', '--interval', '1d', '--out', 'x.csv'], "--pair must be BASE/QUOTE, e.g. BTC/USD, got 'BTCUSD'"],
    [[...OK, '--start', '2024-13-01'], "--start must be an ISO 8601 date or datetime"],
    [[...OK, '--start', '2024-02-30'], "--start must be an ISO 8601 date or datetime"],
    [[...OK, '--start', '2024-03-01', '--end', '2024-02-01'], '--start 2024-03-01 is after --end 2024-02-01'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d'], 'give --out FILE'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', 'x.txt'], "cannot tell the format of 'x.txt'"],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', '-'], '--out - (stdout) needs --format csv or --format jsonl'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', '-', '--format', 'sqlite'], 'SQLite cannot be written to stdout'],
    [[...OK, '--format', 'xlsx'], "--format must be sqlite, csv, jsonl, parquet or postgres, got 'xlsx'"],
    [[...OK, '--mock', '--base-url', 'http://127.0.0.1:1'], '--mock and --base-url exclude each other'],
    [[...OK, '--follow', '--resample', '1w'], '--follow stores candles as they close: it cannot go with --resample'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--follow', '--out', 'dir', '--format', 'parquet'], 'follow into SQLite, CSV, JSON Lines or PostgreSQL'],
    [[...OK, '--progress-interval', '0'], '--progress-interval must be a number of seconds'],
    [[...OK, '--part-rows', '5000'], '--part-rows applies to --format parquet only'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', 'x.sqlite', '--part-rows', '5000'], '--part-rows applies to --format parquet only'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', 'postgres://u@h/db', '--part-rows', '5000'], '--part-rows applies to --format parquet only'],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', '-', '--format', 'jsonl', '--part-rows', '5000'], '--part-rows applies to --format parquet only'],
    [[...PARQUET, '--part-rows', 'many'], `${PART_ROWS_RANGE}, got 'many'`],
    [[...PARQUET, '--part-rows', '999'], `${PART_ROWS_RANGE}, got '999'`],
    [[...PARQUET, '--part-rows', '1000001'], `${PART_ROWS_RANGE}, got '1000001'`],
    [[...PARQUET, '--part-rows', '1e4'], `${PART_ROWS_RANGE}, got '1e4'`],
    [[...PARQUET, '--part-rows', '5000.5'], `${PART_ROWS_RANGE}, got '5000.5'`],
    [['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--out', 'x.parquet', '--part-rows', '0'], `${PART_ROWS_RANGE}, got '0'`],
    [[...OK, '--pair', 'BTC/USD'], '--pair BTC/USD is given twice'],
    [[...OK, 'extra'], "Unexpected argument 'extra'"],
    [[...OK, '--api-key-file', join(tmpdir(), 'no-such-key-file')], 'cannot read --api-key-file'],
  ])('%j → exit 2: %s', async (args, message) => {
    // In process: the same runExport the CLI calls, without a process start per case.
    const r = await runInProcess(args.slice(1), env)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stderr).toContain('Usage: market-candles export [options]')
  })

  test.each([['--api-key', 'sk-live-123'], ['--api-key=sk-live-123'], ['--apikey=sk-live-123']])(
    'a key given as a flag (%s) is refused with the reason, and never echoed',
    async (...flag) => {
      const r = await runInProcess([...OK, ...flag].slice(1), env)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('the API key is never taken from a flag')
      expect(r.stderr).toContain('MARKET_CANDLES_API_KEY')
      expect(r.stderr).toContain('--api-key-file FILE')
      expect(r.stderr).not.toContain('sk-live-123')
    },
  )

  test('--part-rows: with --format parquet or an --out ending in .parquet, from 1,000 to 1,000,000; left out, the default', () => {
    const base = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d']
    expect(parseExportArgs([...base, '--out', 'dir', '--format', 'parquet', '--part-rows', '1000']).partRows).toBe(1000)
    expect(parseExportArgs([...base, '--out', 'x.parquet', '--part-rows', '1000000']).partRows).toBe(1_000_000)
    expect(parseExportArgs([...base, '--out', 'x.parquet']).partRows).toBeUndefined()
    expect(parseExportArgs([...base, '--out', 'x.csv']).partRows).toBeUndefined()
  })

  test('an unknown flag with a value is named without its value', async () => {
    const r = await runInProcess([...OK, '--token=sk-live-123'].slice(1), env)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("Unknown option '--token")
    expect(r.stderr).not.toContain('sk-live-123')
  })

  test('no key and no service URL are usage errors that say where they come from', async () => {
    const noKey = await runInProcess(OK.slice(1), { MARKET_CANDLES_BASE_URL: server.url })
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toContain('no API key: set MARKET_CANDLES_API_KEY, or give --api-key-file FILE')
    const noUrl = await runInProcess(OK.slice(1), { MARKET_CANDLES_API_KEY: 'demo-pro-key' })
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toContain('no service URL: give --base-url URL or set MARKET_CANDLES_BASE_URL')
  })

  // The CLI as a process for --help (its dispatch); the other runs check runExport's messages and output, in process.
  test('--help prints the usage on stdout and exits 0; `market-candles --help` lists export', async () => {
    const r = await runCli(['export', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: market-candles export [options]')
    const top = await runCli(['--help'])
    expect(top.stdout).toContain('market-candles export [options]')
  })
})

describe('market-candles export: progress', () => {
  test('off a terminal: plain lines on stderr every --progress-interval seconds, with candles done/expected, pages, requests/s, 429s, ETA', async () => {
    const out = join(dir, 'p.sqlite')
    const r = await runInProcess(['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2024-01-01', '--end', '2024-12-31', '--out', out, '--progress-interval', '0.2', '--rate-limit', '3'], env)
    expect(r.code).toBe(0)
    const lines = r.stderr.trimEnd().split('\n')
    const progress = lines.filter((l) => l.startsWith('export: bitstamp BTC/USD 1h: ') && !l.includes(' stored'))
    expect(lines.at(-2)).toBe('export: bitstamp BTC/USD 1h: 8,761 candles stored, 8,761 expected, no gaps') // the series' coverage
    expect(progress.length).toBeGreaterThanOrEqual(2)
    for (const line of progress) {
      expect(line).toMatch(/^export: bitstamp BTC\/USD 1h: \d+\/8761 candles \(\d+\.\d %\), \d+ pages?, \d+\.\d requests\/s, \d+ × 429, ETA (\d+s|\d+m\d\ds|\?)$/)
    }
    expect(lines.at(-1)).toMatch(/^export: done: 1 series, 8761 candles in 9 pages, \d+ requests \(\d+\.\d\/s\), 0 × 429, \d+\.\d s → .*p\.sqlite$/)
  })

  test('--quiet silences progress and the summary', async () => {
    const r = await runInProcess(['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2024-06-01', '--end', '2024-12-31', '--out', join(dir, 'q.csv'), '--progress-interval', '0.1', '--quiet'], env)
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
  })
})
