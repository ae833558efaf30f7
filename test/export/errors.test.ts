import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { sqliteRows } from './sinks/read-output.js'
import { runCli, startCli, waitFor } from './run-cli.js'
import { exportInProcess } from './export-in-process.js'

const NOW = '2025-01-01T00:00:00Z'
let server: RunningMockServer
let dir: string
const envFor = (key: string, url = server.url) => ({ MARKET_CANDLES_API_KEY: key, MARKET_CANDLES_BASE_URL: url })

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: NOW })
  dir = mkdtempSync(join(tmpdir(), 'export-errors-'))
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

const BTC_1H = ['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h']
/**
 * `market-candles export ...` in process (exportInProcess): the messages and exit codes this file
 * checks are runExport's; the run a network failure breaks, and its rerun, are the built CLI as a
 * process (runCli, startCli).
 */
const inProcess = (args: readonly string[], env: Record<string, string>) => exportInProcess(args.slice(1), env)

describe('market-candles export: errors give a clear message and exit 1', () => {
  test('401: a revoked key is refused; the message says where the key came from and never holds it', async () => {
    const r = await inProcess([...BTC_1H, '--start', '2024-12-01', '--out', join(dir, 'a.csv')], envFor('demo-revoked-key'))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('the service refused the API key from MARKET_CANDLES_API_KEY (401 Invalid API key)')
    expect(r.stderr).not.toContain('demo-revoked-key')
  })

  test('401 with the key from --api-key-file names the file, not the key', async () => {
    const file = join(dir, 'key.txt')
    writeFileSync(file, 'demo-revoked-key\n')
    const r = await inProcess([...BTC_1H, '--start', '2024-12-01', '--out', '-', '--format', 'csv', '--api-key-file', file], { MARKET_CANDLES_BASE_URL: server.url })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`from --api-key-file ${file}`)
    expect(r.stderr).not.toContain('demo-revoked-key')
  })

  test('403 beyond the history depth names the earliest allowed start and suggests --start, which then works', async () => {
    // demo-free-key: exchange_ohlcv at 1h reaches 30 days back from the service clock (2025-01-01)
    const out = join(dir, 'free.csv')
    const r = await inProcess([...BTC_1H, '--start', '2024-06-01', '--out', out], envFor('demo-free-key'))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('bitstamp BTC/USD 1h: the start lies beyond your plan')
    expect(r.stderr).toContain('The earliest allowed start is 2024-12-02T00:00:00Z; run again with --start 2024-12-03 (or later).')
    const again = await inProcess([...BTC_1H, '--start', '2024-12-03', '--out', out, '--quiet'], envFor('demo-free-key'))
    expect(again.code).toBe(0)
  })

  test('403 without --start (the first candle is years back) gives the same hint', async () => {
    const r = await inProcess([...BTC_1H, '--out', join(dir, 'free2.csv')], envFor('demo-free-key'))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('run again with --start 2024-12-03')
  })

  test('403 for an endpoint outside the plan says so', async () => {
    const r = await inProcess(['export', '--aggregated', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2024-12-20', '--out', join(dir, 'f.csv')], envFor('demo-free-key'))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("your plan does not allow this (403: Plan 'free' does not include aggregated_ohlcv)")
  })

  test('404: an unknown pair lists the pairs the catalog has for that exchange and interval', async () => {
    const r = await inProcess(['export', '--exchange', 'bitstamp', '--pair', 'BTC/XYZ', '--interval', '1d', '--out', join(dir, 'x.csv')], envFor('demo-enterprise-key'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/BTC\/XYZ has no 1d candles on bitstamp\. Pairs there at 1d: ADA\/EUR, BTC\/EUR, BTC\/USD, .*XRP\/USD/)
    expect(r.stderr).not.toContain('BTC/GBP') // listed after the service's clock
  })

  test('404: an unknown exchange lists the exchanges', async () => {
    const r = await inProcess(['export', '--exchange', 'kraken', '--pair', 'BTC/USD', '--interval', '1d', '--out', join(dir, 'x.csv')], envFor('demo-enterprise-key'))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("Unknown exchange 'kraken' (404). Exchanges: bitstamp, ftx")
  })

  test('the network failing: a closed server gives a clear message after the retries', async () => {
    const gone = await startMockServer({ port: 0, now: NOW })
    await gone.close()
    const r = await inProcess([...BTC_1H, '--start', '2024-12-01', '--out', join(dir, 'n.csv')], envFor('demo-enterprise-key', gone.url))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`cannot reach the service at ${gone.url}`)
  })

  test('the network failing mid-run: exit 1, the pages written stay intact, and a rerun completes with no gap and no duplicate', async () => {
    const out = join(dir, 'mid.sqlite')
    const args = [...BTC_1H, '--start', '2022-01-01', '--end', '2024-12-31', '--out', out, '--progress-interval', '0.1']
    const flaky = await startMockServer({ port: 0, now: NOW, latency: 40 })
    const cli = startCli(args, envFor('demo-enterprise-key', flaky.url))
    await waitFor(() => /: [1-9]\d*\/\d+ candles/.test(cli.output().stderr), 15_000, 'a first page')
    flaky.server.closeAllConnections()
    await flaky.close()
    const r = await cli.result
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('cannot reach the service')
    expect(r.stderr).toMatch(/Nothing written is lost: .*mid\.sqlite holds every page completed \(\d+ candles in this run\)/)
    const kept = sqliteRows(out, 'exchange_candles')
    expect(kept.length % 1000).toBe(0) // whole pages only
    const again = await runCli([...args, '--quiet'], envFor('demo-enterprise-key'))
    expect(again.code).toBe(0)
    const rows = sqliteRows(out, 'exchange_candles').map((c) => c.close_ts as string)
    const full = join(dir, 'mid-full.sqlite')
    expect((await inProcess([...BTC_1H, '--start', '2022-01-01', '--end', '2024-12-31', '--out', full, '--quiet'], envFor('demo-enterprise-key'))).code).toBe(0)
    expect(rows).toEqual(sqliteRows(full, 'exchange_candles').map((c) => c.close_ts as string))
    expect(rows.slice(0, kept.length)).toEqual(kept.map((c) => c.close_ts))
  }, 40_000)

  test('a file holding something else is refused, untouched', async () => {
    const file = join(dir, 'notes.csv')
    writeFileSync(file, 'name,age\nann,3\n')
    const r = await inProcess([...BTC_1H, '--start', '2024-12-01', '--out', file], envFor('demo-enterprise-key'))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('does not start with the header this export writes')
    const { readFileSync } = await import('node:fs')
    expect(readFileSync(file, 'utf8')).toBe('name,age\nann,3\n')
  })
})
