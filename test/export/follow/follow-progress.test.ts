import { PassThrough } from 'node:stream'
import { describe, expect, test } from 'vitest'
import { followReporter, formatLag } from '../../../cli/export/progress/index.js'
import { RequestMeter } from '../../../cli/export/progress/request-meter.js'

function capture() {
  const stream = new PassThrough()
  let text = ''
  stream.setEncoding('utf8').on('data', (d: string) => (text += d))
  return { stream, text: () => text }
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits (bounded) until the reporter's timer has printed `text`, however loaded the machine. */
async function until(read: () => string, text: string): Promise<void> {
  for (let i = 0; i < 200 && !read().includes(text); i++) await tick(25)
}

describe('export --follow progress: how many series are followed and the lag of the newest candle', () => {
  test('off a terminal, a line every interval: series followed, the newest candle across series with its lag, totals, 429s', async () => {
    const out = capture()
    const meter = new RequestMeter()
    meter.response(200)
    meter.response(429)
    const reporter = followReporter({ meter, stream: out.stream, intervalSeconds: 0.1, tty: false, quiet: false, series: 3 })
    reporter.pageWritten('bitstamp BTC/USD 1m', 1, '2026-01-01T00:05:00Z', 2300)
    reporter.pageWritten('bitstamp ETH/USD 1m', 2, '2026-01-01T00:04:00Z', 61_000)
    reporter.seriesEnded("Exchange 'ftx' closed on 2022-11-11: no candle of ftx BTC/USD 1m follows its last one")
    await until(out.text, 'following 2 series')
    reporter.stop()
    const lines = out.text().split('\n').filter(Boolean)
    expect(lines[0]).toBe("export: Exchange 'ftx' closed on 2022-11-11: no candle of ftx BTC/USD 1m follows its last one")
    expect(lines[1]).toBe('export: following 2 series (1 ended): newest candle 2026-01-01T00:05:00Z (bitstamp BTC/USD 1m), lag 2.3 s; 3 new candles in 2 pages, 2 requests, 1 × 429')
  })

  test('before the first new candle it says it is waiting; on a terminal the line is redrawn in place; --quiet prints nothing', async () => {
    const tty = capture()
    const reporter = followReporter({ meter: new RequestMeter(), stream: tty.stream, intervalSeconds: 5, tty: true, quiet: false, series: 1 })
    await until(tty.text, 'waiting')
    reporter.stop()
    const line = '\r\x1b[2Kexport: following 1 series: waiting for the next close; 0 new candles in 0 pages, 0 requests, 0 × 429'
    // Redrawn once a second, one line on the screen; stop() leaves the cursor on the next line.
    expect(tty.text().split(line).join('')).toBe('\n')
    expect(tty.text().startsWith(line)).toBe(true)
    const quiet = capture()
    const silent = followReporter({ meter: new RequestMeter(), stream: quiet.stream, intervalSeconds: 0.1, tty: false, quiet: true, series: 1 })
    silent.pageWritten('bitstamp BTC/USD 1m', 1, '2026-01-01T00:05:00Z', 2000)
    silent.seriesEnded('done')
    await tick(250)
    silent.stop()
    expect(quiet.text()).toBe('')
  })

  test('a lag reads in seconds under a minute, then in minutes, then hours', () => {
    expect(formatLag(2345)).toBe('2.3 s')
    expect(formatLag(65_000)).toBe('1 m 05 s')
    expect(formatLag(3 * 3_600_000 + 7 * 60_000)).toBe('3 h 07 m')
  })
})
