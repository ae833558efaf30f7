import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SeriesFailure, exportAll } from '../../../cli/export/history/runner.js'
import type { ProgressReporter } from '../../../cli/export/progress/index.js'
import type { Series } from '../../../cli/export/plan/series.js'
import type { AnyCandle, Sink } from '../../../cli/export/sinks/index.js'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'
import { createClient, type MarketCandles } from '../../../src/index.js'

// The export takes the next page while a write is in flight; these rules keep that honest.
let server: RunningMockServer
let client: MarketCandles
let series: Series
// Five full 1h pages of the default dataset's bitstamp BTC/USD.
const START = Date.UTC(2024, 0, 1)
const END = START + (5 * 1000 - 1) * 3_600_000

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: '2025-06-01T00:00:00Z', rateLimit: false })
  client = createClient({ apiKey: 'demo-enterprise-key', baseUrl: server.url, rateLimit: false })
  const pair = (await client.exchangePairs({ exchange: 'bitstamp', interval: '1h' })).find((p) => p.base === 'BTC' && p.quote === 'USD')!
  series = { kind: 'exchange', source: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', first: Date.parse(pair.first_close_ts), last: Date.parse(pair.last_close_ts) }
})
afterAll(async () => {
  await server.close()
})

/** A sink that waits on every write, as one behind a server does, and records what it saw. */
function slowSink(failOnWrite?: number, options: { delayMs?: number; pagesInFlight?: number } = {}) {
  const seen = { writes: 0, resolved: 0, inFlight: 0, maxInFlight: 0, closeTimes: [] as number[] }
  const sink: Sink = {
    lastStored: () => undefined,
    pagesInFlight: options.pagesInFlight,
    async write(_series, candles: readonly AnyCandle[]) {
      const n = ++seen.writes
      seen.inFlight++
      seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight)
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 15))
      seen.inFlight--
      if (n === failOnWrite) throw new Error('disk full')
      for (const c of candles) seen.closeTimes.push(Date.parse(c.close_ts))
      seen.resolved++
    },
    close: async () => {},
  }
  return { sink, seen }
}

/** Counts pages as the progress display does, and what had been stored when each was counted. */
function countingReporter(seen: { resolved: number }) {
  const counted: Array<{ candles: number; resolvedWrites: number }> = []
  const reporter: ProgressReporter = {
    seriesStarted() {},
    pageWritten: (candles) => counted.push({ candles, resolvedWrites: seen.resolved }),
    seriesDone() {},
    note() {},
    stop() {},
  }
  return { reporter, counted }
}

describe('market-candles export: pages are written in order, one at a time or as many as the sink gathers, while the next is fetched', () => {
  test('a sink that waits gets one write at a time, every candle once in ascending close_ts, and a page counts only once its write resolved', async () => {
    const { sink, seen } = slowSink()
    const { reporter, counted } = countingReporter(seen)
    const totals = await exportAll(client, [series], { start: START, end: END }, sink, reporter, new AbortController().signal)
    expect(seen.maxInFlight).toBe(1)
    expect(seen.closeTimes.length).toBeGreaterThan(4000)
    expect(seen.closeTimes.every((t, i) => i === 0 || t > seen.closeTimes[i - 1]!)).toBe(true)
    expect(totals.candles).toBe(seen.closeTimes.length)
    expect(counted.map((c) => c.resolvedWrites)).toEqual(counted.map((_, i) => i + 1))
  })

  test('a write that fails stops the export: no later page is written, and only the pages written before it are counted', async () => {
    const { sink, seen } = slowSink(3)
    const { reporter, counted } = countingReporter(seen)
    const totals = { series: 0, candles: 0, pages: 0 }
    const failure = await exportAll(client, [series], { start: START, end: END }, sink, reporter, new AbortController().signal, totals).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(SeriesFailure)
    expect(((failure as SeriesFailure).cause as Error).message).toBe('disk full')
    expect(seen.writes).toBe(3)
    expect(totals.pages).toBe(2)
    expect(counted).toHaveLength(2)
    expect(totals.candles).toBe(seen.closeTimes.length)
  })

  test('a sink that gathers pages into batches (pagesInFlight 3) gets up to 3 writes before the first resolves, never more, in order; each page counts only once its own write resolved', async () => {
    const { sink, seen } = slowSink(undefined, { delayMs: 300, pagesInFlight: 3 })
    const { reporter, counted } = countingReporter(seen)
    const totals = await exportAll(client, [series], { start: START, end: END }, sink, reporter, new AbortController().signal)
    expect(seen.maxInFlight).toBeGreaterThan(1)
    expect(seen.maxInFlight).toBeLessThanOrEqual(3)
    expect(seen.closeTimes.every((t, i) => i === 0 || t > seen.closeTimes[i - 1]!)).toBe(true)
    expect(totals.candles).toBe(seen.closeTimes.length)
    counted.forEach((c, i) => expect(c.resolvedWrites).toBeGreaterThanOrEqual(i + 1))
    expect(counted).toHaveLength(seen.writes)
  })
})
