import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMockService } from '../../mocks/index.js'
import { formatTimestamp } from '../../src/contract/index.js'
import { EXPLICIT_NOW, HOUR, T0, explicitDataset } from '../support/fixtures.js'
import { ENTERPRISE, TRANSPORTS, qs, type Transport } from '../support/transports.js'
import { walk } from '../support/walk.js'

const truth = explicitDataset()
  .candles.filter((c) => c.exchange === 'alpha' && c.base === 'BTC' && c.quote === 'USD')
  .sort((a, b) => a.close_ts.localeCompare(b.close_ts))
const EX = '/v1/exchange_ohlcv'
const ALPHA = { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD' }
const iso = (t: number) => new Date(t).toISOString()
const inWindow = (from: number, to: number) => truth.filter((c) => Date.parse(c.close_ts) >= from && Date.parse(c.close_ts) <= to)

describe.each(TRANSPORTS)('paging rules for both candle endpoints via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
  })
  afterAll(() => t.close())

  test('candle arrays are ordered by close_ts ascending', async () => {
    for (const params of [{ limit: 50 }, { limit: 50, start: iso(T0) }, { limit: 50, end: iso(T0 + 60 * HOUR) }]) {
      const res = await t.get(`${EX}${qs({ ...ALPHA, ...params })}`, ENTERPRISE)
      const ts = res.body.map((c: { close_ts: string }) => c.close_ts)
      expect(ts).toEqual([...ts].sort())
    }
  })

  test('with start set, the page is the first limit candles with close_ts >= start (and <= end), even when the window holds more', async () => {
    const start = T0 + 4 * HOUR
    const end = T0 + 100 * HOUR
    const res = await t.get(`${EX}${qs({ ...ALPHA, start: iso(start), end: iso(end), limit: 5 })}`, ENTERPRISE)
    expect(res.body).toEqual(inWindow(start, end).slice(0, 5))
    expect(res.body[0].close_ts).toBe(formatTimestamp(T0 + 4 * HOUR))
    expect(res.body[1].close_ts).toBe(formatTimestamp(T0 + 8 * HOUR)) // hours 5-7 are an outage
  })

  test('with start omitted, the response holds the most recent limit candles (up to end if set), returned ascending', async () => {
    const latest = await t.get(`${EX}${qs({ ...ALPHA, limit: 3 })}`, ENTERPRISE)
    expect(latest.body).toEqual(truth.slice(-3))
    const end = T0 + 43 * HOUR
    const capped = await t.get(`${EX}${qs({ ...ALPHA, end: iso(end), limit: 4 })}`, ENTERPRISE)
    expect(capped.body).toEqual(inWindow(-Infinity, end).slice(-4))
  })

  test('limit: default 500, applied as a true row limit', async () => {
    const res = await t.get(`${EX}${qs({ ...ALPHA, start: iso(T0) })}`, ENTERPRISE)
    expect(res.body).toHaveLength(truth.length) // fewer than 500 exist
    for (const limit of [1, 2, 7, 1000]) {
      const page = await t.get(`${EX}${qs({ ...ALPHA, start: iso(T0), limit })}`, ENTERPRISE)
      expect(page.body).toEqual(truth.slice(0, limit))
    }
  })

  test('start and end bounds are inclusive; "just after" is +1 ms and "just before" is -1 ms', async () => {
    const c = truth[10]!
    const t10 = Date.parse(c.close_ts)
    expect((await t.get(`${EX}${qs({ ...ALPHA, start: c.close_ts, limit: 1 })}`, ENTERPRISE)).body).toEqual([c])
    expect((await t.get(`${EX}${qs({ ...ALPHA, end: c.close_ts, limit: 1 })}`, ENTERPRISE)).body).toEqual([c])
    expect((await t.get(`${EX}${qs({ ...ALPHA, start: iso(t10 + 1), limit: 1 })}`, ENTERPRISE)).body).toEqual([truth[11]])
    expect((await t.get(`${EX}${qs({ ...ALPHA, end: iso(t10 - 1), limit: 1 })}`, ENTERPRISE)).body).toEqual([truth[9]])
  })

  test.each([1, 2, 3, 7, 50, 1000])('forward walk == ground truth == backward walk reversed (limit %i)', async (limit) => {
    const forward = await walk(t, EX, { ...ALPHA, start: iso(T0), limit }, ENTERPRISE)
    const backward = await walk(t, EX, { ...ALPHA, limit }, ENTERPRISE)
    expect(forward.pages.flat()).toEqual(truth)
    expect(backward.pages.flat().length).toBe(truth.length)
    expect(backward.pages.reverse().flat()).toEqual(truth)
  })

  test('a forward walk bounded by end stops at end, with no duplicate at page boundaries', async () => {
    const start = T0 + 15 * HOUR
    const end = T0 + 95 * HOUR
    const { pages } = await walk(t, EX, { ...ALPHA, start: iso(start), end: iso(end), limit: 6 }, ENTERPRISE)
    expect(pages.flat()).toEqual(inWindow(start, end))
  })

  test('the closed exchange pages to its last candle and no further', async () => {
    const beta = explicitDataset().candles.filter((c) => c.exchange === 'beta')
    const { pages } = await walk(t, EX, { ...ALPHA, exchange: 'beta', start: iso(T0), limit: 9 }, ENTERPRISE)
    expect(pages.flat()).toEqual(beta)
  })
})

describe('paging rules hold for any window and limit (property, core)', () => {
  const service = createMockService({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false, validateResponses: true })
  const get = async (params: Record<string, string | number | undefined>) =>
    (await service.handle({ method: 'GET', url: `${EX}${qs({ ...ALPHA, ...params })}`, headers: ENTERPRISE })).body as typeof truth

  test('forward page = first limit of [start, end]; backward page = last limit of [.., end]', async () => {
    const instant = fc.integer({ min: T0 - 5 * HOUR, max: T0 + 130 * HOUR })
    await fc.assert(
      fc.asyncProperty(instant, instant, fc.integer({ min: 1, max: 1000 }), fc.boolean(), async (a, b, limit, withEnd) => {
        const [start, end] = a <= b ? [a, b] : [b, a]
        const upper = withEnd ? end : Infinity
        expect(await get({ start: iso(start), end: withEnd ? iso(end) : undefined, limit })).toEqual(inWindow(start, upper).slice(0, limit))
        expect(await get({ end: withEnd ? iso(end) : undefined, limit })).toEqual(inWindow(-Infinity, upper).slice(-limit))
      }),
      { numRuns: 300 },
    )
  })
})

describe('paging the default dataset', () => {
  let t: Transport
  beforeAll(async () => {
    const { viaMsw } = await import('../support/transports.js')
    t = await viaMsw({ now: '2026-06-01T00:00:00Z', rateLimit: false })
  })

  test('forward walk == backward walk reversed across an outage (1m, 2024-10-07)', async () => {
    const params = { exchange: 'bitstamp', interval: '1m', base: 'ETH', quote: 'USD', limit: 97 }
    const start = '2024-10-07T06:00:00Z'
    const end = '2024-10-07T11:00:00Z'
    const forward = (await walk(t, EX, { ...params, start, end }, ENTERPRISE)).pages.flat()
    const backward = (await walk(t, EX, { ...params, end }, ENTERPRISE, { until: start })).pages.reverse().flat().filter((c: { close_ts: string }) => c.close_ts >= start)
    expect(forward).toEqual(backward)
    // 5 hours of minutes, less the outage [08:15, 08:52): 37 minutes missing
    expect(forward).toHaveLength(5 * 60 + 1 - 37)
    expect(forward.some((c: { close_ts: string }) => c.close_ts >= '2024-10-07T08:15:00Z' && c.close_ts < '2024-10-07T08:52:00Z')).toBe(false)
  }, 30_000)

  test('aggregated forward walk over a month of 1h equals the backward walk', async () => {
    const params = { interval: '1h', base: 'BTC', quote: 'USD', limit: 200 }
    const forward = (await walk(t, '/v1/aggregated_ohlcv', { ...params, start: '2021-11-15T00:00:00Z', end: '2021-12-15T00:00:00Z' }, ENTERPRISE)).pages.flat()
    const backward = (await walk(t, '/v1/aggregated_ohlcv', { ...params, end: '2021-12-15T00:00:00Z' }, ENTERPRISE, { until: '2021-11-15T00:00:00Z' })).pages.reverse().flat().filter((c: { close_ts: string }) => c.close_ts >= '2021-11-15T00:00:00Z')
    expect(forward).toEqual(backward)
    // ftx's outage 2021-12-01T00:00 to 12-02T06:00 leaves bitstamp alone in the aggregate
    const during = forward.filter((c: { close_ts: string }) => c.close_ts >= '2021-12-01T00:00:00Z' && c.close_ts < '2021-12-02T06:00:00Z')
    expect(during.length).toBe(30)
    for (const c of during) expect(c.exchanges).toEqual(['bitstamp'])
  }, 30_000)
})
