import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createClient, type ExchangeCandle } from '../../src/index.js'
import { EXPLICIT_NOW, T0, explicitDataset } from '../support/fixtures.js'
import { SDK_TARGETS, caught, collect, sdkViaHttp, sdkViaMsw, type SdkTarget } from '../support/sdk-targets.js'

const KEY = 'demo-enterprise-key'
const MIN = 60_000
const iso = (t: number) => new Date(t).toISOString()
const ts = (candles: { close_ts: string }[]) => candles.map((c) => c.close_ts)

/**
 * A minimal service for one 1m series at arbitrary instants (off the grid, in dense clusters): the
 * paging rules written out plainly, plus the pairs catalog. It records what the walk asked for.
 */
function fakeService(times: number[]) {
  const candles = times.map((t) => ({ close_ts: fakeIso(t) }))
  const stats = { requests: [] as URL[], inFlight: 0, maxInFlight: 0, served: 0 }
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.pathname.endsWith('/exchange_pairs')) {
      const entry = times.length === 0 ? [] : [{ base: 'B', quote: 'Q', first_close_ts: candles[0]!.close_ts, last_close_ts: candles.at(-1)!.close_ts }]
      return Response.json(entry)
    }
    stats.requests.push(url)
    stats.inFlight++
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
    stats.inFlight--
    const q = url.searchParams
    const start = q.has('start') ? Date.parse(q.get('start')!) : -Infinity
    const end = q.has('end') ? Date.parse(q.get('end')!) : Infinity
    const limit = Number(q.get('limit') ?? 500)
    const window = times.map((t, i) => [t, i] as const).filter(([t]) => t >= start && t <= end)
    const page = q.has('start') ? window.slice(0, limit) : window.slice(-limit)
    stats.served += page.length
    return Response.json(page.map(([, i]) => fullCandle(candles[i]!.close_ts)))
  }
  return { fetch, stats }
}

const base = { exchange: 'e', interval: '1m', base: 'B', quote: 'Q', close_ts: '', open: 1, high: 2, low: 0.5, close: 1.5, base_volume: 1, quote_volume: 1.5, source_provider: 'p', source_channel: 'c', flag: null }
const fullCandle = (close_ts: string): ExchangeCandle => ({ ...base, close_ts })
const clientFor = (fetch: typeof globalThis.fetch) => createClient({ apiKey: KEY, baseUrl: 'http://fake.test', fetch, rateLimit: false, retry: false })

describe('ordered concurrent paging: correctness never depends on the grid or on full windows', () => {
  // Instants on, off and between grid points, with clusters denser than one candle a minute.
  const instant = fc.oneof(
    fc.integer({ min: 0, max: 3000 }).map((m) => T0 + m * MIN),
    fc.integer({ min: 0, max: 3000 * MIN }).map((ms) => T0 + ms),
    fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 59_999 })).map(([m, ms]) => T0 + 1000 * MIN + m * MIN + ms),
  )

  test('any data, window, page size and concurrency: the walk equals the ground truth, in order, without duplicates (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(instant, { maxLength: 400 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: -100, max: 3100 }),
        fc.option(fc.integer({ min: -100, max: 3200 }), { nil: undefined }),
        async (raw, limit, concurrency, startMin, endMin) => {
          const times = [...raw].sort((a, b) => a - b)
          const { fetch } = fakeService(times)
          const start = T0 + startMin * MIN + 7 // off the grid on purpose
          const end = endMin === undefined ? undefined : Math.max(start, T0 + endMin * MIN)
          const truth = times.filter((t) => t >= start && (end === undefined || t <= end)).map((t) => fullCandle(fakeIso(t)))
          const walk = clientFor(fetch).exchangeOhlcvCandles({ exchange: 'e', interval: '1m', base: 'B', quote: 'Q', start: iso(start), end: end === undefined ? undefined : iso(end), limit }, { concurrency })
          expect(ts(await collect(walk))).toEqual(ts(truth))
          expect(walk.cursor).toBeNull()
        },
      ),
      { numRuns: 150 },
    )
    // About 5 s alone; a CPU-bound property with a third of a core in the full suite on two cores
    // took over 20 s (a fresh clone, 2026-11-27).
  }, 60_000)

  test('buffering is bounded: candles fetched but not yet yielded never exceed concurrency x limit', async () => {
    const times = Array.from({ length: 5000 }, (_, i) => T0 + i * MIN)
    const { fetch, stats } = fakeService(times)
    const walk = clientFor(fetch).exchangeOhlcvCandles({ exchange: 'e', interval: '1m', base: 'B', quote: 'Q', start: iso(T0), limit: 50 }, { concurrency: 4 })
    let yielded = 0
    let maxAhead = 0
    for await (const _ of walk) {
      yielded++
      maxAhead = Math.max(maxAhead, stats.served - yielded)
    }
    expect(yielded).toBe(5000)
    expect(maxAhead).toBeLessThanOrEqual(4 * 50)
    expect(stats.maxInFlight).toBeLessThanOrEqual(4)
    expect(stats.maxInFlight).toBeGreaterThan(1) // it really ran windows at once
    expect(stats.requests.length).toBeLessThanOrEqual(5000 / 50 + 2) // no empty follow-up per full window
  })

  test('maxItems with concurrency fetches only what it may need', async () => {
    const times = Array.from({ length: 5000 }, (_, i) => T0 + i * MIN)
    const { fetch, stats } = fakeService(times)
    const got = await collect(clientFor(fetch).exchangeOhlcvCandles({ exchange: 'e', interval: '1m', base: 'B', quote: 'Q', start: iso(T0), limit: 100 }, { maxItems: 250, concurrency: 8 }))
    expect(got).toHaveLength(250)
    expect(stats.requests.length).toBeLessThanOrEqual(3)
  })
})

function fakeIso(t: number) {
  return new Date(t).toISOString().replace('.000Z', 'Z')
}

describe.each(SDK_TARGETS)('concurrent walks against the reference service, via %s', (_name, connect) => {
  let target: SdkTarget
  beforeAll(async () => {
    target = await connect({ now: '2026-06-01T00:00:00Z', rateLimit: false })
  })
  afterAll(() => target.close())
  beforeEach(async () => {
    target.sent.length = 0
    await target.service.reset()
  })
  const params = { exchange: 'bitstamp', interval: '1m', base: 'ETH', quote: 'USD', start: '2024-10-01T00:00:00Z', end: '2024-10-15T00:00:00Z' } as const

  test('the concurrent walk equals the sequential one (two weeks of 1m, an outage inside)', async () => {
    const client = target.client({ apiKey: KEY, rateLimit: false })
    const sequential = await collect(client.exchangeOhlcvCandles(params, { concurrency: 1 }))
    const concurrent = await collect(client.exchangeOhlcvCandles(params, { concurrency: 6 }))
    expect(concurrent).toEqual(sequential)
    expect(sequential).toHaveLength(14 * 1440 + 1 - 37)
  }, 30_000)

  test('5xx and broken connections mid-walk are retried; the walk is complete and each page counted once', async () => {
    const client = target.client({ apiKey: KEY, rateLimit: false, retry: { limit: 4, baseDelayMs: 5 } })
    const truth = await collect(client.exchangeOhlcvCandles(params, { concurrency: 1 }))
    const pages = target.service.usage().acct_enterprise!
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503, times: 3 })
    target.service.faults.add({ path: '/v1/exchange_ohlcv', networkError: true, times: 3 })
    expect(await collect(client.exchangeOhlcvCandles(params, { concurrency: 6 }))).toEqual(truth)
    expect(target.service.usage().acct_enterprise! - pages).toBe(pages) // only 200s are counted
  }, 30_000)

  test('a walk that fails for good resumes from its cursor with no gap and no duplicate', async () => {
    const good = target.client({ apiKey: KEY, rateLimit: false })
    const truth = await collect(good.exchangeOhlcvCandles(params, { concurrency: 1 }))
    const fragile = target.client({ apiKey: KEY, rateLimit: false, retry: false })
    const walk = fragile.exchangeOhlcvCandles(params, { concurrency: 6 })
    const head: ExchangeCandle[] = []
    let n = 0
    const error = await caught(
      (async () => {
        for await (const candle of walk) {
          head.push(candle)
          if (++n === 4500) target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 500, times: 50 })
        }
      })(),
    )
    expect(error).toMatchObject({ name: 'InternalServerError' })
    target.service.faults.clear()
    const tail = await collect(good.resumeCandles(JSON.parse(JSON.stringify(walk.cursor))))
    expect(ts([...head, ...tail])).toEqual(ts(truth))
  }, 30_000)

  test('an abort mid-walk stops it at once and cancels the windows in flight', async () => {
    const client = target.client({ apiKey: KEY, rateLimit: false })
    const controller = new AbortController()
    const walk = client.exchangeOhlcvCandles(params, { concurrency: 6, signal: controller.signal })
    let n = 0
    const error = await caught(
      (async () => {
        for await (const _ of walk) if (++n === 2500) controller.abort()
      })(),
    )
    expect(error).toMatchObject({ name: 'APIUserAbortError' })
    const sentAtAbort = target.sent.length
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(target.sent.length).toBe(sentAtAbort)
    expect(n).toBe(2500) // no candle is handed out after the abort
    const truth = await collect(client.exchangeOhlcvCandles(params, { concurrency: 1 }))
    expect(ts([...truth.slice(0, n), ...(await collect(client.resumeCandles(walk.cursor!)))])).toEqual(ts(truth))
  }, 30_000)

  test('explicit fixtures with gaps: concurrent == sequential == ground truth', async () => {
    const explicit = await sdkViaMsw({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
    const client = explicit.client({ apiKey: KEY, rateLimit: false })
    const q = { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD', start: iso(T0), limit: 7 } as const
    const truth = explicitDataset().candles.filter((c) => c.exchange === 'alpha' && c.base === 'BTC')
    expect(await collect(client.exchangeOhlcvCandles(q, { concurrency: 5 }))).toEqual(truth)
    expect(await collect(client.aggregatedOhlcvCandles({ interval: '1h', base: 'BTC', quote: 'USD', start: iso(T0), limit: 7 }, { concurrency: 5 }))).toEqual(
      await collect(client.aggregatedOhlcvCandles({ interval: '1h', base: 'BTC', quote: 'USD', start: iso(T0), limit: 7 }, { concurrency: 1 })),
    )
  })
})

describe('concurrent walks under the real rate limit', () => {
  test('a default walk of 25 full pages against a rate-limited server draws no 429 and every page is counted once', async () => {
    const target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const statuses: number[] = []
      const client = target.client({ apiKey: KEY, hooks: { onResponse: (e) => e.endpoint === 'exchange_ohlcv' && statuses.push(e.status) } })
      const start = Date.UTC(2024, 0, 1)
      const candles = await collect(client.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: iso(start), end: iso(start + (25_000 - 1) * MIN) }))
      expect(candles).toHaveLength(25_000)
      expect(statuses.filter((s) => s !== 200)).toEqual([])
      expect(statuses).toHaveLength(25)
      expect(target.service.usage().acct_enterprise).toBe(25)
    } finally {
      await target.close()
    }
  }, 30_000)
})
