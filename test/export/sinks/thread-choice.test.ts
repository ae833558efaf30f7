import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseExportArgs } from '../../../cli/export/flags/args.js'
import { SMALL_EXPORT_CANDLES, plannedCandles, useExportThread, useOutputThread } from '../../../cli/export/plan/thread-choice.js'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'
import { CLI } from '../run-cli.js'
import type { Series } from '../../../cli/export/plan/series.js'

const H = 3_600_000
const T0 = Date.parse('2024-01-01T00:00:00Z')
/** No --start, no --end. */
const ALL = { start: undefined, end: undefined }
const hourly = (first: number, last: number, base = 'BTC'): Series => ({ kind: 'exchange', source: 'bitstamp', interval: '1h', base, quote: 'USD', first, last })

describe('export: which outputs get a thread of their own', () => {
  test('the candles planned are those of the catalog coverage within --start/--end, inclusive, per series', () => {
    const a = hourly(T0, T0 + 99 * H)
    const b = hourly(T0 + 50 * H, T0 + 199 * H, 'ETH')
    expect(plannedCandles([a], ALL)).toBe(100)
    expect(plannedCandles([a, b], { start: T0 + 10 * H, end: T0 + 59 * H })).toBe(50 + 10)
    // a range outside a series' coverage adds nothing
    expect(plannedCandles([a], { ...ALL, start: T0 + 500 * H })).toBe(0)
    // an interval it does not know: counted as unbounded (a thread)
    expect(plannedCandles([{ ...a, interval: '7x' }], ALL)).toBe(Infinity)
  })

  test('a short history into a file or PostgreSQL is written on the export thread; a long one and a follow get the output thread; stdout never', () => {
    const short = [hourly(T0, T0 + (SMALL_EXPORT_CANDLES - 2) * H)]
    const long = [hourly(T0, T0 + SMALL_EXPORT_CANDLES * H)]
    const file = { out: 'x.sqlite', follow: false, start: undefined, end: undefined }
    expect(useOutputThread(file, short)).toBe(false)
    expect(useOutputThread(file, long)).toBe(true)
    expect(useOutputThread({ ...file, follow: true }, short)).toBe(true)
    expect(useOutputThread({ ...file, out: 'postgres://u@h/db' }, short)).toBe(false)
    expect(useOutputThread({ ...file, out: 'postgres://u@h/db' }, long)).toBe(true)
    expect(useOutputThread({ ...file, out: '-' }, long)).toBe(false)
    // --end inside a long coverage makes it short
    expect(useOutputThread({ ...file, end: T0 + 100 * H }, long)).toBe(false)
  })
})

describe('export: which runs get a thread of their own', () => {
  const NOW = Date.parse('2026-11-27T00:00:00Z')
  const base = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--out', 'x.sqlite']
  const thread = (...more: string[]) => useExportThread(parseExportArgs([...base, ...more]), NOW)
  const hours = (n: number) => new Date(T0 + (n - 1) * H).toISOString()

  test('a one-off export of named pairs from --start with fewer candles in its range than the limit runs on the main thread', () => {
    expect(thread('--start', '2024-01-01', '--end', hours(SMALL_EXPORT_CANDLES - 1))).toBe(false)
    expect(thread('--start', '2024-01-01', '--end', hours(SMALL_EXPORT_CANDLES))).toBe(true)
    // every pair counts, and the range's end is inclusive
    expect(thread('--pair', 'ETH/USD', '--start', '2024-01-01', '--end', hours(SMALL_EXPORT_CANDLES / 2))).toBe(true)
    expect(thread('--pair', 'ETH/USD', '--start', '2024-01-01', '--end', hours(SMALL_EXPORT_CANDLES / 2 - 1))).toBe(false)
    // without --end the range runs to now
    expect(thread('--start', new Date(NOW - 100 * H).toISOString())).toBe(false)
    expect(thread('--start', '2024-01-01')).toBe(true)
  })

  test('a follow, --all-pairs, no --start, a metrics server take the thread, however short the range; PostgreSQL as a file', () => {
    const short = ['--start', '2024-01-01', '--end', '2024-01-02']
    expect(thread(...short)).toBe(false)
    expect(useExportThread(parseExportArgs(['--exchange', 'bitstamp', '--all-pairs', '--interval', '1h', '--out', 'x.sqlite', ...short]), NOW)).toBe(true)
    expect(thread()).toBe(true)
    expect(thread('--start', '2024-01-01', '--follow')).toBe(true)
    expect(thread(...short, '--metrics-port', '0')).toBe(true)
    expect(useExportThread(parseExportArgs([...base.slice(0, -2), '--out', 'postgres://u@127.0.0.1/db', ...short]), NOW)).toBe(false)
    expect(useExportThread(parseExportArgs([...base.slice(0, -2), '--out', 'postgres://u@127.0.0.1/db', '--start', '2024-01-01']), NOW)).toBe(true)
  })
})

describe('export --out -: the reader leaving', () => {
  let server: RunningMockServer
  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2025-01-01T00:00:00Z', rateLimit: false })
  })
  afterAll(() => server.close())

  // `export ... --out - | head -c 10`, as a shell runs it; the export's own status from PIPESTATUS.
  async function pipedToHead(range: string[]): Promise<{ status: string; stderr: string }> {
    const command = `"${process.execPath}" "${CLI}" export --exchange bitstamp --pair BTC/USD --interval 1m ${range.join(' ')} --out - --format csv --rate-limit off --quiet | head -c 10 > /dev/null; echo "status \${PIPESTATUS[0]}" >&2`
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH ?? '', MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: server.url } })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    await once(child, 'close')
    clearTimeout(timer)
    return { status: /status (\d+)/.exec(stderr)?.[1] ?? 'none', stderr: stderr.replace(/status \d+\n/, '') }
  }

  test.each([
    ['a short export, on the main thread', ['--start', '2024-01-01', '--end', '2024-01-10']],
    ['a long export, on its own thread', ['--start', '2024-01-01', '--end', '2024-03-01']],
  ])('the export ends quietly with 141, the status of a SIGPIPE death (%s)', async (_, range) => {
    const r = await pipedToHead(range)
    expect(r.stderr).toBe('')
    expect(r.status).toBe('141')
  })
})
