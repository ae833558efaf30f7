import { describe, expect, test } from 'vitest'
import { APIUserAbortError, InvalidParamsError, type ExchangeCandle, type FollowManyCursor } from '../../../src/index.js'
import { formatTimestamp } from '../../../src/contract/index.js'
import { candle } from '../../support/fixtures.js'
import { sdkViaHttp, sdkViaMsw, caught, type SdkTarget, closedWhenFileEnds } from '../../support/sdk-targets.js'

const KEY = 'demo-pro-key'
const MIN = 60_000
const BTC = { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' } as const
const NOW = Date.parse('2026-01-01T00:00:00Z')
const iso = (t: number) => formatTimestamp(t)
const candleRequests = (t: SdkTarget) => t.sent.filter((r) => r.url.pathname.endsWith('_ohlcv'))

/*
 * The tests wait on running clocks most of their time: they run side by side (describe.concurrent,
 * five at a time), each with a service of its own, closed when the file ends. One after the other
 * they took 31 s of wall time (2026-11-29).
 */
/** A service of this test's own and its client, closed at the end of the file. */
const own = closedWhenFileEnds()

/** The minutes from `from` to `to` inclusive, as the service writes them. */
const minutes = (from: number, to: number) => Array.from({ length: (to - from) / MIN + 1 }, (_, i) => iso(from + i * MIN))

describe.concurrent('follow: every candle exactly once, ascending, history first then each new candle once it has closed', () => {
  test('with start, the history is caught up, then the follow goes on without a seam (running clock at 60x)', async () => {
    const target = await own(sdkViaHttp({ now: NOW, clockRate: 60 }))
    const service = target.service
    const live = target.client({ apiKey: KEY }).exchangeOhlcvFollow({ ...BTC, start: NOW - 30 * MIN, end: NOW + 3 * MIN }, { now: () => service.clock.now() })
    const seen: string[] = []
    const deliveredAt: number[] = []
    for await (const candle of live) {
      seen.push(candle.close_ts)
      deliveredAt.push(service.clock.now())
    }
    expect(seen).toEqual(minutes(NOW - 30 * MIN, NOW + 3 * MIN))
    expect(live.ended).toMatchObject({ reason: 'end', series: { endpoint: 'exchange_ohlcv', exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' } })
    // Each new candle after its close, never before: the follow polls by the service's clock.
    for (let i = 31; i < seen.length; i++) expect(deliveredAt[i]).toBeGreaterThanOrEqual(Date.parse(seen[i]!))
  })

  test('without start, the follow begins with the latest closed candle', async () => {
    // The clock stands until the first answer: which candle is the latest closed one must not depend
    // on how long a loaded machine takes to send the first request.
    const target = await own(sdkViaMsw({ now: NOW + 30_000, clockRate: 0 }))
    const service = target.service
    const live = target.client({ apiKey: KEY }).aggregatedOhlcvFollow({ interval: '1m', base: 'BTC', quote: 'USD' }, { now: () => service.clock.now() })
    const seen: string[] = []
    for await (const candle of live) {
      if (seen.push(candle.close_ts) === 1) service.clock.setRate(60)
      if (seen.length === 3) break
    }
    expect(seen).toEqual(minutes(NOW, NOW + 2 * MIN))
    expect(live.cursor).toEqual({ version: 1, kind: 'follow', endpoint: 'aggregated_ohlcv', query: { interval: '1m', base: 'BTC', quote: 'USD', limit: '1000', start: '2026-01-01T00:02:00.001Z' } })
  })

  test('in steady state the cost is one request per series per interval', async () => {
    // The clock stands until the first answer (as above), then runs at 120x.
    const target = await own(sdkViaMsw({ now: NOW + 5_000, clockRate: 0 }))
    const service = target.service
    const live = target.client({ apiKey: KEY }).exchangeOhlcvFollow({ ...BTC, end: NOW + 8 * MIN }, { now: () => service.clock.now() })
    const seen: string[] = []
    for await (const candle of live) if (seen.push(candle.close_ts) === 1) service.clock.setRate(120)
    expect(seen).toEqual(minutes(NOW, NOW + 8 * MIN))
    // The latest candle, then one request per new candle (fewer if the machine stalled past a close:
    // one request then brings two); the series ends at `end` without asking again.
    expect(candleRequests(target).length).toBeLessThanOrEqual(1 + 8)
  })

  test('resumed from the cursor (as JSON, by another client) it continues with no gap and no duplicate', async () => {
    const target = await own(sdkViaMsw({ now: NOW, clockRate: 60 }))
    const service = target.service
    const params = { ...BTC, start: NOW - 10 * MIN, end: NOW + 2 * MIN }
    const first = target.client({ apiKey: KEY }).exchangeOhlcvFollow(params, { now: () => service.clock.now() })
    const seen: string[] = []
    for await (const candle of first) if (seen.push(candle.close_ts) === 4) break
    const saved = JSON.stringify(first.cursor)
    const again = target.client({ apiKey: KEY }).resumeFollow(JSON.parse(saved), { now: () => service.clock.now() })
    for await (const candle of again) seen.push(candle.close_ts)
    expect(seen).toEqual(minutes(NOW - 10 * MIN, NOW + 2 * MIN))
  })
})

describe.concurrent('follow: polling is driven by the service clock, learnt from its Date header', () => {
  test('a service clock shifted by months from the machine: the next candle comes just after it closes, with no tight loop', async () => {
    // The service's clock runs at wall speed but in 2025, 1.5 s before a minute closes.
    const shifted = Date.parse('2025-03-01T10:00:58.500Z')
    const target = await own(sdkViaHttp({ now: shifted, clockRate: 1 }))
    const live = target.client({ apiKey: KEY }).exchangeOhlcvFollow(BTC, { settleMs: 300 })
    const seen: string[] = []
    const started = performance.now()
    for await (const candle of live) if (seen.push(candle.close_ts) === 2) break
    expect(seen).toEqual(['2025-03-01T10:00:00Z', '2025-03-01T10:01:00Z'])
    // 1.5 s to the close, 0.3 s of settle, a second of Date resolution: a few seconds (not the months
    // of the shift, not a minute), and a handful of requests (no tight loop), even on a loaded machine.
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(candleRequests(target).length).toBeLessThanOrEqual(5)
    expect(Math.abs(live.serviceNow() - target.service.clock.now())).toBeLessThan(1_500)
  })
})

describe.concurrent('follow: late data and outages', () => {
  test('a candle published after the settle delay is asked for again with a backoff, and still comes exactly once', async () => {
    const target = await own(sdkViaMsw({ now: NOW + 1_000, clockRate: 120, publishDelayMs: 4_000 }))
    const service = target.service
    const live = target.client({ apiKey: KEY }).exchangeOhlcvFollow({ ...BTC, start: NOW - 2 * MIN, end: NOW + 5 * MIN }, { now: () => service.clock.now(), settleMs: 1_000 })
    const seen: string[] = []
    for await (const candle of live) seen.push(candle.close_ts)
    expect(seen).toEqual(minutes(NOW - 2 * MIN, NOW + 5 * MIN))
    // Bounded: per new candle, a request at close + 1 s, retries after 2 s and 8 s (the candle is
    // visible at close + 4 s): three, never a tight loop. The history is a window and its tail; the
    // candle of NOW (not yet visible when the follow starts) may come with the history or live.
    const requests = candleRequests(target).length
    expect(requests).toBeGreaterThanOrEqual(5)
    expect(requests).toBeLessThanOrEqual(2 + 6 * 3)
  })
})

describe.concurrent('follow: a series whose exchange has closed ends with a clear reason, not a silent hang', () => {
  test('ftx (closed 2022-11-11): its history up to the last candle, then ended', async () => {
    const target = await own(sdkViaMsw({ now: NOW }))
    const live = target.client({ apiKey: 'demo-enterprise-key' }).exchangeOhlcvFollow({ exchange: 'ftx', interval: '1d', base: 'BTC', quote: 'USD', start: '2022-11-01' })
    const seen: ExchangeCandle[] = []
    for await (const candle of live) seen.push(candle)
    expect(seen.at(-1)!.close_ts).toBe('2022-11-11T00:00:00Z')
    expect(live.ended).toMatchObject({ reason: 'exchange-closed', message: expect.stringMatching(/Exchange 'ftx' closed on 2022-11-11/) })
  })
})

describe.concurrent('follow: signal aborts, break stops cleanly, and nothing is left running', () => {
  test('an abort during the wait for the next candle rejects with APIUserAbortError and sends nothing after', async () => {
    const target = await own(sdkViaMsw({ now: NOW + 1_000 }))
    const controller = new AbortController()
    const live = target.client({ apiKey: KEY }).exchangeOhlcvFollow(BTC, { signal: controller.signal })
    const iterator = live[Symbol.asyncIterator]()
    expect((await iterator.next()).value?.close_ts).toBe(iso(NOW))
    const waiting = iterator.next()
    setTimeout(() => controller.abort(new Error('user left')), 50)
    const error = await caught(waiting)
    expect(error).toBeInstanceOf(APIUserAbortError)
    const sent = target.sent.length
    await new Promise((r) => setTimeout(r, 700))
    expect(target.sent.length).toBe(sent)
  })

  test('break stops the follow: no request goes out after it', async () => {
    const target = await own(sdkViaMsw({ now: NOW, clockRate: 600 }))
    const service = target.service
    const live = target.client({ apiKey: KEY }).exchangeOhlcvFollow({ ...BTC, start: NOW - 5 * MIN }, { now: () => service.clock.now() })
    let n = 0
    for await (const _ of live) if (++n === 8) break
    const sent = target.sent.length
    await new Promise((r) => setTimeout(r, 400))
    expect(target.sent.length).toBe(sent)
    expect(live.cursor.query.start).toBe(new Date(NOW + 2 * MIN + 1).toISOString())
  })
})

describe.concurrent('followMany: one limiter, one cursor, {series, candle}', () => {
  test('twelve 1m series at 30x share the client limiter: every candle once per series, 0 x 429', async () => {
    const target = await own(sdkViaHttp({ now: NOW + 1_000, clockRate: 30 }))
    const service = target.service
    const pairs = ['BTC/USD', 'ETH/USD', 'BTC/EUR', 'ETH/BTC', 'SOL/USD', 'BTC/USDT']
    const catalog = await target.client().exchangePairs({ exchange: 'bitstamp', interval: '1m' })
    const available = pairs.filter((p) => catalog.some((c) => `${c.base}/${c.quote}` === p))
    const series = available.flatMap((pair) => {
      const [base, quote] = pair.split('/') as [string, string]
      return [
        { endpoint: 'exchange_ohlcv' as const, exchange: 'bitstamp', interval: '1m', base, quote, start: NOW - MIN, end: NOW + 2 * MIN },
        { endpoint: 'aggregated_ohlcv' as const, interval: '1m', base, quote, start: NOW - MIN, end: NOW + 2 * MIN },
      ]
    })
    expect(series.length).toBeGreaterThanOrEqual(6)
    const live = target.client({ apiKey: KEY }).followMany(series, { now: () => service.clock.now() })
    const bySeries = new Map<string, string[]>()
    for await (const { series: s, candle } of live) {
      const key = JSON.stringify(s)
      bySeries.set(key, [...(bySeries.get(key) ?? []), candle.close_ts])
    }
    expect(bySeries.size).toBe(series.length)
    for (const seen of bySeries.values()) expect(seen).toEqual(minutes(NOW - MIN, NOW + 2 * MIN))
    expect(live.ended).toHaveLength(series.length)
    expect(live.cursor.series).toHaveLength(series.length)
    expect(service.usage().acct_pro).toBe(candleRequests(target).length) // every request counted: none was a 429
  })
})

describe.concurrent('followMany: resumed from its one cursor, every series continues with no gap and no duplicate', () => {
  test('three series broken off mid-way, resumed from the JSON cursor by another client', async () => {
    // The clock stands until the first answer, then runs at 120x: the aggregated series (no start)
    // begins with the candle of NOW however long a loaded machine takes to send the first requests.
    const target = await own(sdkViaMsw({ now: NOW, clockRate: 0 }))
    const service = target.service
    const end = NOW + 2 * MIN
    const series = [
      { endpoint: 'exchange_ohlcv' as const, ...BTC, start: NOW - 5 * MIN, end },
      { endpoint: 'exchange_ohlcv' as const, ...BTC, base: 'ETH', start: NOW - 3 * MIN, end },
      { endpoint: 'aggregated_ohlcv' as const, interval: '1m', base: 'BTC', quote: 'USD', end },
    ]
    const seen = new Map<string, string[]>()
    const note = (s: object, ts: string) => seen.set(JSON.stringify(s), [...(seen.get(JSON.stringify(s)) ?? []), ts])
    const first = target.client({ apiKey: KEY }).followMany(series, { now: () => service.clock.now() })
    let n = 0
    for await (const { series: s, candle } of first) {
      note(s, candle.close_ts)
      if (++n === 1) service.clock.setRate(120)
      if (n === 7) break
    }
    const saved = JSON.stringify(first.cursor)
    expect(JSON.parse(saved)).toMatchObject({ version: 1, kind: 'follow-many', series: [{ kind: 'follow' }, { kind: 'follow' }, { kind: 'follow' }] })
    const again = target.client({ apiKey: KEY }).resumeFollow(JSON.parse(saved) as FollowManyCursor, { now: () => service.clock.now() })
    for await (const { series: s, candle } of again) note(s, candle.close_ts)
    // Sorted by their JSON: the aggregated series first, then bitstamp BTC, then bitstamp ETH.
    const [agg, btc, eth] = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, ts]) => ts)
    expect(seen.size).toBe(3)
    expect(agg).toEqual(minutes(NOW, end))
    expect(btc).toEqual(minutes(NOW - 5 * MIN, end))
    expect(eth).toEqual(minutes(NOW - 3 * MIN, end))
  })
})

describe.concurrent('follow: every bad input gets a clear error before any request', () => {
  test.each([
    ['an unknown option', (target: SdkTarget) => target.client({ apiKey: KEY }).exchangeOhlcvFollow(BTC, { settle: 5 } as never), /Unknown option 'settle'/i],
    ['a negative settleMs', (target: SdkTarget) => target.client({ apiKey: KEY }).exchangeOhlcvFollow(BTC, { settleMs: -1 }), /settleMs must be an integer/],
    ['now that is not a function', (target: SdkTarget) => target.client({ apiKey: KEY }).exchangeOhlcvFollow(BTC, { now: 5 as never }), /now must be a function/],
    ['an interval of unknown length', (target: SdkTarget) => target.client({ apiKey: KEY }).exchangeOhlcvFollow({ ...BTC, interval: '5m' }), /Cannot follow interval '5m'/],
    ['no series', (target: SdkTarget) => target.client({ apiKey: KEY }).followMany([]), /non-empty array/],
    ['a series given twice', (target: SdkTarget) => target.client({ apiKey: KEY }).followMany([{ endpoint: 'exchange_ohlcv', ...BTC }, { endpoint: 'exchange_ohlcv', ...BTC, start: NOW }]), /given twice/],
    ['a series without an endpoint', (target: SdkTarget) => target.client({ apiKey: KEY }).followMany([{ ...BTC } as never]), /series\[0\]\.endpoint/],
    ['a page cursor given to resumeFollow', (target: SdkTarget) => target.client({ apiKey: KEY }).resumeFollow({ version: 1, endpoint: 'exchange_ohlcv', direction: 'forward', query: {} } as never), /Not a follow cursor: cursor.kind/],
    ['a cursor with a number in its query', (target: SdkTarget) => target.client({ apiKey: KEY }).resumeFollow({ version: 1, kind: 'follow', endpoint: 'exchange_ohlcv', query: { limit: 5 } } as never), /cursor.query.limit must be a string/],
  ])('%s', async (_name, make, message) => {
    const target = await own(sdkViaMsw({ now: NOW }))
    expect(() => make(target)).toThrow(message)
    expect(target.sent).toHaveLength(0)
  })

  test('bad parameters are the service own 422 rules (InvalidParamsError), before any request', async () => {
    const target = await own(sdkViaMsw({ now: NOW }))
    expect(() => target.client({ apiKey: KEY }).exchangeOhlcvFollow({ ...BTC, base: '' })).toThrow(InvalidParamsError)
    expect(target.sent).toHaveLength(0)
  })

  test('the API key appears nowhere in a follow cursor or its end', async () => {
    const target = await own(sdkViaMsw({ now: NOW }))
    const live = target.client({ apiKey: 'demo-enterprise-key' }).exchangeOhlcvFollow({ exchange: 'ftx', interval: '1d', base: 'BTC', quote: 'USD', start: '2022-11-09' })
    for await (const _ of live);
    expect(JSON.stringify([live.cursor, live.ended])).not.toContain('demo-enterprise-key')
  })
})

// Their margins are a fraction of a second of wall time: they run one after the other, after the others.
describe('follow: `end` ends the follow once every candle up to it has been delivered', () => {
  test('the candle at `end`, published later than its interval (given up on as the next close nears), is asked for once more and delivered before the end', async () => {
    // Every candle is published 56 s after its close: with a settle of 1 s its asks (1, 3, 11 and
    // 43 s after the close) miss and the follow moves on to the next close, with which it comes.
    // The candle at `end` has no next one: one more ask a whole interval after it was due finds it.
    // (The 43 s ask would have to come 13 s of service time late, 0.2 s of wall at 60x, to find it.)
    const target = await own(sdkViaMsw({ now: NOW + 1_000, clockRate: 60, publishDelayMs: 56_000, rateLimit: false }))
    const service = target.service
    const live = target.client({ apiKey: KEY, rateLimit: false }).exchangeOhlcvFollow({ ...BTC, start: NOW - 2 * MIN, end: NOW + 2 * MIN }, { now: () => service.clock.now(), settleMs: 1_000 })
    const seen: string[] = []
    for await (const candle of live) seen.push(candle.close_ts)
    expect(seen).toEqual(minutes(NOW - 2 * MIN, NOW + 2 * MIN))
    expect(live.ended?.reason).toBe('end')
    // Not there yet when the follow ends: that ask came after the candle's whole interval.
    expect(service.clock.now()).toBeGreaterThanOrEqual(NOW + 3 * MIN + 1_000)
  })

  test('a candle missing at `end` ends the follow one interval after it was due, not never', async () => {
    const endMs = NOW + 2 * MIN
    // bitstamp BTC/USD from NOW - 2 min to NOW + 3 min, without the candle at `end`.
    const candles = [-2, -1, 0, 1, 3].map((m) => candle('bitstamp', 'BTC/USD', '1m', NOW + m * MIN, 100 + m))
    const data = {
      exchanges: [{ name: 'bitstamp', creation_date: '2025-01-01', closing_date: null }],
      assets: [
        { name: 'US Dollar', asset_type: 'FIAT' as const, ticker: 'USD' },
        { name: 'Bitcoin', asset_type: 'CRYPTO' as const, ticker: 'BTC' },
      ],
      candles,
    }
    const target = await own(sdkViaMsw({ data, now: NOW + 1_000, clockRate: 600, rateLimit: false }))
    const service = target.service
    const live = target.client({ apiKey: KEY, rateLimit: false }).exchangeOhlcvFollow({ ...BTC, start: NOW - 2 * MIN, end: endMs }, { now: () => service.clock.now(), settleMs: 1_000 })
    const seen: string[] = []
    for await (const candle of live) seen.push(candle.close_ts)
    expect(seen).toEqual(minutes(NOW - 2 * MIN, NOW + MIN))
    expect(live.ended?.reason).toBe('end')
    expect(service.clock.now()).toBeLessThan(endMs + 3 * MIN)
  })
})


describe('follow, learnt publish delay: only an ask that found the expected candle as the newest teaches it', () => {
  test.each(['given (now)', "learnt from the Date header (clockRate 120)"])('after the clock moves an hour on, the catch-up page does not teach a delay of an hour: the next candles still come within two intervals of their close, not a third of an hour late (clock %s)', async (clock) => {
    const target = await own(sdkViaMsw({ now: NOW + 1_000, clockRate: 120, publishDelayMs: 1_000, rateLimit: false }))
    const service = target.service
    const end = NOW + 66 * MIN
    const time = clock.startsWith('given') ? { now: () => service.clock.now() } : { clockRate: 120 }
    const live = target.client({ apiKey: KEY, rateLimit: false }).exchangeOhlcvFollow({ ...BTC, end }, time)
    const lags: number[] = []
    let moved = false
    for await (const candle of live) {
      const close = Date.parse(candle.close_ts)
      // Moved at the first candle (the latest closed one), before any delay is learnt.
      if (!moved) {
        moved = true
        service.clock.advance(60 * MIN)
      } else if (close > NOW + 62 * MIN) lags.push(service.clock.now() - close)
    }
    expect(live.ended?.reason).toBe('end')
    expect(lags).toHaveLength(4)
    // Available 1 s after its close. Taught by the catch-up page, the follow asked 15-18 minutes on;
    // now within two minutes (a second of wall time at 120x: timers on a loaded machine).
    expect(Math.max(...lags), lags.join(', ')).toBeLessThan(2 * MIN)
    expect(live.state.settleMs).toBeLessThan(2 * MIN)
  })
})
