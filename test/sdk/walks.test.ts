import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { APIUserAbortError, PaginationError, PermissionDeniedError, createClient, pageCursorSchema, type ExchangeCandle, type PageCursor } from '../../src/index.js'
import { EXPLICIT_NOW, HOUR, T0, explicitDataset } from '../support/fixtures.js'
import { SDK_TARGETS, caught, collect, sdkViaMsw, type SdkTarget } from '../support/sdk-targets.js'

const KEY = 'demo-enterprise-key'
const ALPHA = { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD' } as const
const truth = explicitDataset().candles.filter((c) => c.exchange === 'alpha' && c.base === 'BTC').sort((a, b) => a.close_ts.localeCompare(b.close_ts))
const iso = (t: number) => new Date(t).toISOString()
const ts = (candles: { close_ts: string }[]) => candles.map((c) => c.close_ts)

describe.each(SDK_TARGETS)('paging iterators implement the anchor rules, via %s', (_name, connect) => {
  let target: SdkTarget
  beforeAll(async () => {
    target = await connect({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
  })
  afterAll(() => target.close())
  const client = () => target.client({ apiKey: KEY, rateLimit: false })

  test.each([1, 2, 3, 7, 50, 1000])('forward walk == ground truth == backward walk reversed, over fixtures with gaps (limit %i)', async (limit) => {
    const forward = await collect(client().exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), limit }))
    const backward = await collect(client().exchangeOhlcvCandles({ ...ALPHA, limit }))
    expect(forward).toEqual(truth)
    expect(backward).toEqual([...truth].reverse()) // backward walks yield newest first
  })

  test('forward: next start = last close_ts + 1 ms; stops on a short page or when end is reached', async () => {
    const walk = client().exchangeOhlcvPages({ ...ALPHA, start: iso(T0 + 10 * HOUR), end: iso(T0 + 30 * HOUR), limit: 5 }, { concurrency: 1 })
    const pages = await collect(walk)
    expect(pages.map((p) => p.query.start)).toEqual([iso(T0 + 10 * HOUR), iso(T0 + 14 * HOUR + 1), iso(T0 + 19 * HOUR + 1), iso(T0 + 25 * HOUR + 1)])
    expect(ts(pages.flatMap((p) => p.candles))).toEqual(ts(truth.filter((c) => c.close_ts >= '2024-01-01T10' && c.close_ts <= '2024-01-02T06:00:00Z')))
    expect(walk.cursor).toBeNull()
  })

  test('backward: next end = earliest close_ts - 1 ms; stops on a short page', async () => {
    const pages = await collect(client().exchangeOhlcvPages({ ...ALPHA, end: iso(T0 + 30 * HOUR), limit: 10 }))
    expect(pages[1]!.query.end).toBe(iso(Date.parse(pages[0]!.candles[0]!.close_ts) - 1))
    expect(pages.at(-1)!.candles.length).toBeLessThan(10)
    expect(pages.every((p) => ts(p.candles).join() === ts(p.candles).sort().join())).toBe(true) // each page ascending, as served
  })

  test('resumable: a walk restarted from the cursor of every page continues with no gap and no duplicate', async () => {
    for (const start of [iso(T0), undefined]) {
      const pages = await collect(client().exchangeOhlcvPages({ ...ALPHA, start, limit: 9 }))
      const all = pages.flatMap((p) => (start ? p.candles : [...p.candles].reverse()))
      let seen = 0
      for (const page of pages) {
        seen += page.candles.length
        if (page.cursor === null) continue
        const saved = JSON.parse(JSON.stringify(page.cursor)) as PageCursor // a restart of the process
        const rest = await collect(client().resumeCandles(saved))
        expect(rest).toEqual(all.slice(seen))
      }
      expect(pages.at(-1)!.cursor).toBeNull()
    }
  })

  test('resumable from the candle iterator cursor after a break at any candle', async () => {
    for (const direction of ['forward', 'backward'] as const) {
      const params = direction === 'forward' ? { ...ALPHA, start: iso(T0), limit: 7 } : { ...ALPHA, limit: 7 }
      const all = await collect(client().exchangeOhlcvCandles(params))
      for (const stopAt of [1, 6, 7, 8, 20, all.length - 1]) {
        const walk = client().exchangeOhlcvCandles(params)
        const head: ExchangeCandle[] = []
        for await (const candle of walk) {
          head.push(candle)
          if (head.length === stopAt) break
        }
        const tail = await collect(client().resumeCandles(pageCursorSchema.parse(JSON.parse(JSON.stringify(walk.cursor)))))
        expect([...head, ...tail], `${direction} break at ${stopAt}`).toEqual(all)
      }
    }
  })

  test('maxItems stops the walk; its cursor continues after the last candle', async () => {
    const walk = client().exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), limit: 10 }, { maxItems: 25 })
    const head = await collect(walk)
    expect(head).toEqual(truth.slice(0, 25))
    expect(await collect(client().resumeCandles(walk.cursor!))).toEqual(truth.slice(25))
    const pages = client().exchangeOhlcvPages({ ...ALPHA, limit: 10 }, { maxItems: 15 })
    const got = (await collect(pages)).flatMap((p) => [...p.candles].reverse())
    expect(got).toEqual([...truth].reverse().slice(0, 15))
    expect(await collect(client().exchangeOhlcvCandles({ ...ALPHA, start: iso(T0) }, { maxItems: 0 }))).toEqual([])
  })

  test('iterating the same walk object again continues where it stopped', async () => {
    const walk = client().exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), limit: 4 }, { maxItems: 10 })
    const first = await collect(walk)
    const second = await collect(walk)
    expect([...first, ...second]).toEqual(truth.slice(0, 20))
  })

  test('the AbortSignal is honoured between pages: the walk ends with APIUserAbortError and its cursor resumes', async () => {
    const controller = new AbortController()
    const walk = client().exchangeOhlcvPages({ ...ALPHA, start: iso(T0), limit: 10 }, { signal: controller.signal })
    const got: ExchangeCandle[] = []
    const error = await caught(
      (async () => {
        for await (const page of walk) {
          got.push(...page.candles)
          if (got.length >= 20 && !controller.signal.aborted) controller.abort()
        }
      })(),
    )
    expect(error).toBeInstanceOf(APIUserAbortError)
    expect([...got, ...(await collect(client().resumeCandles(walk.cursor!)))]).toEqual(truth)
  })

  test('aggregated walks page the combined series the same way', async () => {
    const forward = await collect(client().aggregatedOhlcvCandles({ interval: '1h', base: 'BTC', quote: 'USD', start: iso(T0), limit: 6 }))
    const backward = await collect(client().aggregatedOhlcvCandles({ interval: '1h', base: 'BTC', quote: 'USD', limit: 6 }))
    expect(forward).toEqual([...backward].reverse())
    expect(forward.length).toBeGreaterThan(100)
  })
})

describe('walks over the default dataset', () => {
  test('a month of 1m forward == the same month backward, reversed (43,000+ candles, outage included)', async () => {
    const target = await sdkViaMsw({ now: '2026-06-01T00:00:00Z', rateLimit: false })
    const client = target.client({ apiKey: KEY, rateLimit: false })
    const params = { exchange: 'bitstamp', interval: '1m', base: 'ETH', quote: 'USD' } as const
    const forward = await collect(client.exchangeOhlcvCandles({ ...params, start: '2024-09-20T00:00:00Z', end: '2024-10-20T00:00:00Z' }))
    const backward = await collect(client.exchangeOhlcvCandles({ ...params, end: '2024-10-20T00:00:00Z' }, { maxItems: forward.length }))
    expect(backward.reverse()).toEqual(forward)
    expect(forward).toHaveLength(30 * 1440 + 1 - 37) // the 37-minute outage of 2024-10-07
  }, 30_000)

  test('a walk stopped by a 403 (start beyond the plan) fails fast, and a valid walk resumes after a failure', async () => {
    const target = await sdkViaMsw({ now: '2026-06-01T00:00:00Z' })
    const pro = target.client({ apiKey: 'demo-pro-key', rateLimit: false })
    expect(await caught(collect(pro.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2020-01-01' })))).toBeInstanceOf(PermissionDeniedError)
    const params = { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2026-05-20T00:00:00Z', end: '2026-05-21T00:00:00Z', limit: 100 } as const
    const all = await collect(pro.exchangeOhlcvCandles(params))
    target.service.faults.add({ path: '/v1/exchange_ohlcv', networkError: true, times: 5 })
    const head: ExchangeCandle[] = []
    const failing = target.client({ apiKey: 'demo-pro-key', rateLimit: false, retry: false })
    const broken = failing.exchangeOhlcvCandles(params)
    expect(await caught((async () => { for await (const c of broken) head.push(c) })())).toMatchObject({ name: 'APIConnectionError' })
    expect(head).toEqual([])
    target.service.faults.clear()
    expect(await collect(pro.resumeCandles(broken.cursor!))).toEqual(all)
  })
})

describe('guards: a page that breaks the rules ends the walk with an error, never a loop', () => {
  const page = (t0: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...explicitDataset().candles[0]!, close_ts: new Date(t0 + i * HOUR).toISOString().slice(0, 19) + 'Z' }))
  const serving = (answer: (url: URL) => unknown) =>
    createClient({ apiKey: KEY, rateLimit: false, baseUrl: 'http://guard.test', fetch: async (input) => Response.json(answer(new URL(input instanceof Request ? input.url : String(input)))) })

  test('a server that ignores start (the same full page again): PaginationError, not an endless walk', async () => {
    const client = serving(() => page(T0, 3))
    const error = await caught(collect(client.exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), limit: 3 })))
    expect(error).toBeInstanceOf(PaginationError)
    expect(error.message).toMatch(/outside the requested window/)
  })

  test('a page out of ascending order or with a duplicate close_ts: PaginationError', async () => {
    const shuffled = serving(() => page(T0, 3).reverse())
    expect(await caught(collect(shuffled.exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), limit: 3 })))).toBeInstanceOf(PaginationError)
    const dup = serving(() => [...page(T0, 2), ...page(T0 + HOUR, 1)])
    expect(await caught(collect(dup.exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), limit: 3 })))).toBeInstanceOf(PaginationError)
  })

  test('a page longer than limit: PaginationError', async () => {
    const client = serving(() => page(T0, 5))
    expect(await caught(collect(client.exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), limit: 3 })))).toBeInstanceOf(PaginationError)
  })

  test('no duplicate at page boundaries for any page size and window (property, in-process service)', async () => {
    const target = await sdkViaMsw({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
    const client = target.client({ apiKey: KEY, rateLimit: false })
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer({ min: -5, max: 125 }), fc.integer({ min: 0, max: 130 }), async (limit, a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a]
        const got = await collect(client.exchangeOhlcvCandles({ ...ALPHA, start: iso(T0 + from * HOUR), end: iso(T0 + to * HOUR), limit }))
        expect(got).toEqual(truth.filter((c) => Date.parse(c.close_ts) >= T0 + from * HOUR && Date.parse(c.close_ts) <= T0 + to * HOUR))
      }),
      { numRuns: 100 },
    )
  })

  test('a malformed cursor is refused with a clear error before any request', () => {
    const client = createClient({ apiKey: KEY })
    expect(() => client.resumeCandles({ version: 2 } as never)).toThrow(/Not a page cursor/)
    expect(() => client.resumeCandles({ version: 1, endpoint: 'exchange_ohlcv', direction: 'forward', query: { ...ALPHA, limit: '0' } })).toThrow(/limit/)
  })
})
