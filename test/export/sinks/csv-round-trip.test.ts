import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ExchangeCandle } from '../../../src/schemas/index.js'
import { csvLines } from '../../../cli/export/sinks/lines/csv-format.js'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'
import { exportInProcess } from '../export-in-process.js'
import { startCli, waitFor } from '../run-cli.js'

/*
 * Issue 36 §5: a string field holding line breaks, quotes, commas or non-ASCII text, written to CSV
 * by `export` (RFC 4180 quoting), must survive the export's resume (which reads the file's last
 * records) and `serve --data` (which reads it whole): the pages served equal the recorded ones.
 */
const NOW = '2025-01-01T00:00:00Z'
const KEY = { 'x-api-key': 'demo-enterprise-key' }
const SERIES = 'exchange=bitstamp&interval=1h&base=BTC&quote=USD'
const [START, MIDDLE, END] = ['2024-01-01T00:00:00Z', '2024-02-15T00:00:00Z', '2024-04-01T00:00:00Z']
const NASTY = ['line\nbreak', 'crlf\r\nbreak', 'a "quoted" word', 'comma, separated', 'ünïcödé 漢字 🙂', '"\n,"', 'plain']

let server: RunningMockServer
let dir: string
let arranged: ExchangeCandle[]

/** Every page of the series between two instants, as the service answers it. */
async function pagesOf(url: string, start: string, end: string): Promise<ExchangeCandle[]> {
  const out: ExchangeCandle[] = []
  for (let from = start; ; ) {
    const res = await fetch(`${url}/v1/exchange_ohlcv?${SERIES}&start=${from}&end=${end}&limit=1000`, { headers: KEY })
    expect(res.status).toBe(200)
    const page = (await res.json()) as ExchangeCandle[]
    out.push(...page)
    if (page.length < 1000) return out
    from = new Date(Date.parse(page.at(-1)!.close_ts) + 1).toISOString()
  }
}

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: NOW })
  dir = mkdtempSync(join(tmpdir(), 'csv-round-trip-'))
  // The default data's candles, their source and flag replaced by texts CSV must quote, row by row.
  const base = await pagesOf(server.url, START, END)
  arranged = base.map((c, i) => ({
    ...c,
    source_provider: NASTY[i % NASTY.length]!,
    source_channel: NASTY[(i + 3) % NASTY.length]!,
    flag: i % 5 === 0 ? NASTY[(i + 1) % NASTY.length]! : null,
  }))
  server.data.putCandles(arranged)
}, 60_000)

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('CSV round trip: any string field survives export → resume → serve --data', () => {
  test('line breaks, quotes, commas and non-ASCII text in source_provider, source_channel and flag', async () => {
    const out = join(dir, 'nasty.csv')
    const env = { MARKET_CANDLES_API_KEY: KEY['x-api-key'], MARKET_CANDLES_BASE_URL: server.url }
    // In process (runExport, what the CLI's export command runs): the test reads the file it writes.
    const run = (end: string) => exportInProcess(['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--start', START, '--end', end, '--out', out, '--quiet'], env)
    const first = await run(MIDDLE)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    // A run killed mid-write: half a record, cut inside a quoted field just after its line break.
    const next = arranged.find((c) => c.close_ts > MIDDLE && c.source_provider.includes('\n'))!
    const torn = csvLines('exchange', [next])
    appendFileSync(out, torn.slice(0, torn.indexOf('\n') + 1))
    const second = await run(END)
    expect(second.stderr).toBe('')
    expect(second.code).toBe(0)

    const cli = startCli(['serve', '--port', '0', '--now', NOW, '--data', out], {}, 60_000)
    try {
      await waitFor(() => cli.output().stdout.includes('\n'), 30_000, 'the listening line')
      const url = cli.output().stdout.split('\n')[0]!.replace('listening on ', '')
      const served = await pagesOf(url, START, END)
      // Every candle once, in order, every field as arranged: no gap, no duplicate, no text changed.
      expect(served).toEqual(arranged)
      expect(readFileSync(out, 'utf8')).toContain('"line\nbreak"')
    } finally {
      cli.child.kill('SIGTERM')
      expect((await cli.result).code).toBe(0)
    }
  }, 120_000)
})
