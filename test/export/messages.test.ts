import { PassThrough } from 'node:stream'
import { describe, expect, test } from 'vitest'
import { depthHint, depthOf } from '../../cli/export/history/depth-hint.js'
import { RequestMeter } from '../../cli/export/progress/index.js'
import { ttyReporter } from '../../cli/export/progress/tty-progress.js'
import { shellQuote } from '../../cli/export/flags/shell-quote.js'

describe('403 beyond the history depth: the earliest allowed start', () => {
  test('taken from the detail when the service states it; the suggested --start is the next UTC midnight', () => {
    const detail =
      "start 2024-06-01T00:00:00Z is older than the history depth of plan 'free' for exchange_ohlcv at 1h: 30 days (P30D); the earliest allowed start is 2024-12-02T00:00:00Z"
    expect(depthHint(detail, {})).toEqual({ earliest: Date.parse('2024-12-02T00:00:00Z'), suggested: Date.parse('2024-12-03T00:00:00Z') })
  })

  test('computed from the depth the detail names and the Date header when it states no start', () => {
    const detail = 'start is older than the history depth of your plan: P30D'
    const hint = depthHint(detail, { date: 'Wed, 01 Jan 2025 12:34:56 GMT' }, Date.parse('1999-01-01'))
    expect(hint).toEqual({ earliest: Date.parse('2024-12-02T12:34:56Z'), suggested: Date.parse('2024-12-03T00:00:00Z') })
  })

  test('from this machine clock when there is no Date header; depths in words too', () => {
    expect(depthOf('history depth: 90 days')).toBe(90 * 86_400_000)
    expect(depthOf('depth PT12H')).toBe(12 * 3_600_000)
    expect(depthHint('older than the history depth (2 weeks)', {}, Date.parse('2025-01-15T00:00:00Z'))?.earliest).toBe(Date.parse('2025-01-01T00:00:00Z'))
  })

  test('another 403 (endpoint or interval outside the plan) gives no depth hint', () => {
    expect(depthHint("Plan 'free' does not include aggregated_ohlcv", {})).toBeUndefined()
  })
})

describe('progress on a terminal', () => {
  test('a cli-progress bar per series: candles done/expected, pages, requests/s, 429s, ETA', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 160, rows: 40 })
    let out = ''
    stream.on('data', (d) => (out += d))
    const meter = new RequestMeter()
    const reporter = ttyReporter({ meter, stream, intervalSeconds: 5 })
    reporter.seriesStarted('bitstamp BTC/USD 1h', 3000)
    meter.response(200)
    meter.response(429)
    meter.response(200)
    reporter.pageWritten(1000)
    reporter.pageWritten(1000)
    await new Promise((r) => setTimeout(r, 300))
    reporter.seriesDone()
    reporter.seriesStarted('bitstamp ETH/USD 1h', undefined)
    reporter.seriesDone()
    reporter.stop()
    expect(out).toMatch(/bitstamp BTC\/USD 1h .*2000\/3000 candles \| 2 pages \| \d+\.\d req\/s \| 1 × 429 \| ETA/)
    expect(out).toContain('bitstamp ETH/USD 1h')
    expect(out).toContain('\u001b[') // drawn with cursor movements, not plain lines
  })
})

describe('the command to continue with', () => {
  test('arguments are quoted for a POSIX shell only where needed', () => {
    expect(shellQuote(['--pair', 'BTC/USD', '--out', 'my file.csv', '--start', "it's"])).toBe(`--pair BTC/USD --out 'my file.csv' --start 'it'\\''s'`)
  })
})
