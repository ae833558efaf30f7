/*
 * `market-candles export --follow` as a child process, against `market-candles serve` with a
 * running clock (another child process): interrupted (SIGINT), killed (SIGKILL) and resumed with
 * the same command, the output ends up holding exactly the service's series: no gap, no duplicate.
 * Runs that end at once (nothing left to follow, usage errors) run in process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createClient } from '../../../src/index.js'
import { startMockServer } from '../../../mocks/server/index.js'
import { csvFile, jsonLines, sqliteRows } from '../sinks/read-output.js'
import { exportInProcess } from '../export-in-process.js'
import { runCli, startCli, waitFor, type RunningCli } from '../run-cli.js'

const KEY = 'demo-enterprise-key'
const MINUTE = 60_000
// The service's clock starts here and runs 120 times wall speed: a new 1m candle every half second.
const NOW = Date.parse('2026-01-01T00:00:00Z')
const RATE = 120
const PAIRS = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--pair', 'ETH/USD', '--interval', '1m']
// History from 5 minutes before the clock's start; the follow ends 120 service minutes (60 wall s)
// after it. Three exports must start and go live before then: at load ~20 each took 10 s of the
// 20 wall s the old 40-minute range left. The resumed run does not wait the hour out: once it is live
// the test moves the service's clock to just before --end (POST /_mock/clock).
const START = new Date(NOW - 5 * MINUTE).toISOString()
const END_MS = NOW + 120 * MINUTE
const END = new Date(END_MS).toISOString()
/** Where the clock is moved once the resumed run follows: the follow still sees the last minutes close live. */
const JUMP_TO = END_MS - 2 * MINUTE

let dir: string
const started: RunningCli[] = []

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-follow-'))
})
afterAll(async () => {
  for (const cli of started) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
  await Promise.all(started.map((cli) => cli.result))
  rmSync(dir, { recursive: true, force: true })
})

/** `market-candles serve` with a running clock, in its own process; resolves with its URL. */
async function serve(extra: string[] = []): Promise<string> {
  const cli = startCli(['serve', '--port', '0', '--now', new Date(NOW).toISOString(), '--clock-rate', String(RATE), ...extra], {}, 120_000)
  started.push(cli)
  await waitFor(() => cli.output().stdout.includes('\n') || cli.child.exitCode !== null, 20_000, 'serve to listen')
  const line = cli.output().stdout.split('\n')[0]!
  expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
  return line.replace('listening on ', '')
}

type Row = Record<string, unknown>

/** A row's series and close time, and its prices: what must match the service's candle. */
const rowKey = (r: Row) => `${r.exchange}|${r.base}/${r.quote}|${r.close_ts}|${Number(r.open)}|${Number(r.close)}|${Number(r.base_volume)}`

function readRows(path: string, ext: string): Row[] {
  if (ext === 'sqlite') return sqliteRows(path, 'exchange_candles')
  if (ext === 'jsonl') return jsonLines(readFileSync(path, 'utf8'))
  const { header, rows } = csvFile(path)
  return rows.map((f) => Object.fromEntries(header.map((h, i) => [h, f[i]])))
}

/** Per series, in output order, each close_ts once and ascending: whole pages only, nothing repeated. */
function expectAscendingPerSeries(rows: Row[]): void {
  const last = new Map<string, string>()
  for (const r of rows) {
    const series = `${r.base}/${r.quote}`
    const before = last.get(series)
    if (before !== undefined) expect(String(r.close_ts) > before, `${series} ${String(r.close_ts)} after ${before}`).toBe(true)
    last.set(series, String(r.close_ts))
  }
}

/** The service's series over the same range, read with the SDK's walk. */
async function serviceRows(url: string): Promise<string[]> {
  const client = createClient({ apiKey: KEY, baseUrl: url })
  const out: string[] = []
  for (const base of ['BTC', 'ETH']) {
    for await (const c of client.exchangeOhlcvPages({ exchange: 'bitstamp', interval: '1m', base, quote: 'USD', start: START, end: END })) out.push(...c.candles.map(rowKey))
  }
  return out.sort()
}

/** Starts the follow and waits until it has written at least one page at the moving edge. */
async function followUntilLive(url: string, out: string): Promise<{ cli: RunningCli; args: string[] }> {
  const args = ['export', '--base-url', url, ...PAIRS, '--start', START, '--end', END, '--follow', '--clock-rate', String(RATE), '--out', out, '--progress-interval', '0.1']
  const cli = startCli(args, { MARKET_CANDLES_API_KEY: KEY }, 120_000)
  started.push(cli)
  await waitFor(() => /following 2 series: newest candle \S+ \(bitstamp \w+\/USD 1m\), lag \d/.test(cli.output().stderr) || cli.child.exitCode !== null, 45_000, 'a page written by the follow')
  expect(cli.child.exitCode, cli.output().stderr).toBeNull()
  return { cli, args }
}

/** The service's clock, epoch ms. */
async function serviceNow(url: string): Promise<number> {
  const r = await fetch(`${url}/_mock/clock`)
  return Date.parse(((await r.json()) as { now: string }).now)
}

/** Moves the service's clock forward to `to` (never back: it runs on meanwhile); resolves with the move in ms. */
async function moveClockTo(url: string, to: number): Promise<number> {
  const by = to - (await serviceNow(url))
  if (by <= 0) return 0
  const r = await fetch(`${url}/_mock/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: by }) })
  expect(r.status).toBe(200)
  return by
}

describe('market-candles export --follow', () => {
  test.concurrent.each(['sqlite', 'csv', 'jsonl'])(
    'SIGINT stops after the page in hand (exit 130), SIGKILL loses nothing, and the same command resumes: the output holds exactly the service series, no gap and no duplicate (%s, against serve --clock-rate)',
    async (ext) => {
      const url = await serve(['--publish-delay', '1000'])
      const out = join(dir, `follow.${ext}`)

      const first = await followUntilLive(url, out)
      first.cli.child.kill('SIGINT')
      const interrupted = await first.cli.result
      expect(interrupted.code, interrupted.stderr).toBe(130)
      expect(interrupted.stderr).toContain('history written')
      expect(interrupted.stderr).toContain('Interrupted after')
      expect(interrupted.stderr).toContain('Run the same command again to continue')
      expect(interrupted.stderr).not.toContain(KEY)
      const afterInterrupt = readRows(out, ext)
      expectAscendingPerSeries(afterInterrupt)
      // Candles closed after the clock's start came through the follow, not the history.
      expect(afterInterrupt.some((r) => Date.parse(String(r.close_ts)) > NOW)).toBe(true)

      const second = await followUntilLive(url, out)
      second.cli.child.kill('SIGKILL')
      expect((await second.cli.result).signal).toBe('SIGKILL')
      const afterKill = readRows(out, ext)
      expect(afterKill.length).toBeGreaterThan(afterInterrupt.length)

      // The same command again, to the end of the range: it follows, the clock jumps to just before
      // --end (the follow catches up the jump), the follow ends there and the export with 0.
      const third = await followUntilLive(url, out)
      expect(await serviceNow(url)).toBeLessThan(JUMP_TO)
      await moveClockTo(url, JUMP_TO)
      const last = await third.cli.result
      expect(last.code, last.stderr).toBe(0)
      expect(last.stderr).toMatch(/reached its end/)
      expect(last.stderr).not.toContain(KEY)
      const rows = readRows(out, ext)
      expectAscendingPerSeries(rows)
      const expected = await serviceRows(url)
      expect(expected).toHaveLength(2 * 126) // 23:55 to 02:00, both pairs
      expect(rows.map(rowKey).sort()).toEqual(expected)

      // Once complete up to --end, the same command ends at once and writes nothing more (in
      // process: the run the CLI makes, without a Node start).
      const again = await exportInProcess(first.args.slice(1), { MARKET_CANDLES_API_KEY: KEY })
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain('nothing left to follow')
      expect(readRows(out, ext)).toHaveLength(rows.length)
    },
    180_000,
  )

  test('--follow --mock runs the embedded service with a running clock (--clock-rate) and ends at --end with every candle of the range', async () => {
    // The embedded service's clock starts at the system time; at 600x ten 1m candles close each wall second.
    const from = Math.floor(Date.now() / MINUTE) * MINUTE - 3 * MINUTE
    const to = from + 20 * MINUTE
    const out = join(dir, 'mock.jsonl')
    const r = await runCli(
      ['export', '--mock', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--start', new Date(from).toISOString(), '--end', new Date(to).toISOString(), '--follow', '--clock-rate', '600', '--out', out],
      {},
      60_000,
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('following 1 series')
    const rows = jsonLines(readFileSync(out, 'utf8'))
    // The same dataset served from a clock already past the range gives the same candles.
    const reference = await startMockServer({ port: 0, now: new Date(to + MINUTE) })
    try {
      const client = createClient({ apiKey: KEY, baseUrl: reference.url })
      const expected: Row[] = []
      for await (const page of client.exchangeOhlcvPages({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: from, end: to })) expected.push(...page.candles)
      expect(expected).toHaveLength(21)
      expect(rows.map(rowKey)).toEqual(expected.map(rowKey))
    } finally {
      await reference.close()
    }
  }, 90_000)

  test("a series whose exchange has closed ends with a line saying so, and the export with 0", async () => {
    const out = join(dir, 'ftx.csv')
    const r = await runCli(['export', '--mock', '--exchange', 'ftx', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2022-11-01', '--follow', '--out', out], {}, 60_000)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain("export: Exchange 'ftx' closed on 2022-11-11: no candle of ftx BTC/USD 1d follows its last one")
    const { rows } = csvFile(out)
    expect(rows.at(-1)![4]).toBe('2022-11-11T00:00:00Z')
  }, 60_000)

  test('--clock-rate applies to --follow only and must be a positive number: a clear usage error (exit 2)', async () => {
    const base = ['export', '--mock', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--out', join(dir, 'x.csv')]
    // In process (the run the CLI makes): the usage errors of the command line are test/cli/messages.test's.
    const BAD = ['0', 'fast', '1e9', '70000']
    const [without, ...runs] = await Promise.all([
      exportInProcess([...base.slice(1), '--clock-rate', '60'], {}),
      ...BAD.map((bad) => exportInProcess([...base.slice(1), '--follow', '--clock-rate', bad], {})),
    ])
    expect(without!.code).toBe(2)
    expect(without!.stderr).toContain('--clock-rate applies to --follow only')
    for (const [i, bad] of BAD.entries()) {
      const r = runs[i]!
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`--clock-rate must be a number above 0 and up to 60000 (60: a 1m candle every wall second), got '${bad}'`)
    }
  }, 60_000)
})
