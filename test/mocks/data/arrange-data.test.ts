import { describe, expect, test } from 'vitest'
import { DataError, createMockService, type MockService } from '../../../mocks/index.js'
import type { AggregatedCandle, ExchangeCandle } from '../../../src/schemas/index.js'

const NOW = '2026-06-01T00:00:00Z'
const PRO = { 'x-api-key': 'demo-pro-key' }
const ENTERPRISE = { 'x-api-key': 'demo-enterprise-key' }
const HOUR = 3_600_000

/** A valid 1h candle of `exchange` at `close_ts`. */
function candle(close_ts: string, over: Partial<ExchangeCandle> = {}): ExchangeCandle {
  return {
    exchange: 'bitstamp',
    interval: '1h',
    base: 'BTC',
    quote: 'USD',
    close_ts,
    open: 100,
    high: 110,
    low: 90,
    close: 105,
    base_volume: 2,
    quote_volume: 200,
    source_provider: 'test',
    source_channel: 'test',
    flag: null,
    ...over,
  }
}

const hourly = (from: string, n: number, over: Partial<ExchangeCandle> = {}) =>
  Array.from({ length: n }, (_, i) => candle(new Date(Date.parse(from) + i * HOUR).toISOString().replace('.000Z', 'Z'), over))

async function get<T = unknown>(service: MockService, url: string, headers: Record<string, string> = ENTERPRISE): Promise<{ status: number; body: T }> {
  const res = await service.handle({ method: 'GET', url, headers })
  return { status: res.status, body: res.body as T }
}

const ohlcv = (q: string) => `/v1/exchange_ohlcv?interval=1h&${q}`

describe('arranging data: putCandles', () => {
  test('a put candle replaces the default candle at its close time; its neighbours stay', async () => {
    const service = createMockService({ now: NOW })
    const before = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&limit=3'))
    expect(service.data.putCandles([candle('2026-05-01T10:00:00Z')])).toEqual({ candles: 1 })
    const after = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&limit=3'))
    expect(after.body.map((c) => c.close_ts)).toEqual(['2026-05-01T09:00:00Z', '2026-05-01T10:00:00Z', '2026-05-01T11:00:00Z'])
    expect(after.body[1]).toEqual(candle('2026-05-01T10:00:00Z'))
    expect(after.body[0]).toEqual(before.body[0])
    expect(after.body[2]).toEqual(before.body[2])
  })

  test('a new series and pair appears in the catalog: first/last_close_ts follow the data', async () => {
    const service = createMockService({ now: NOW })
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    service.data.putCandles(hourly('2026-01-01T01:00:00Z', 5, { base: 'PEPE', quote: 'USD' }))
    const pairs = await get<{ base: string; quote: string; first_close_ts: string; last_close_ts: string }[]>(service, '/v1/exchange_pairs?exchange=bitstamp&interval=1h')
    expect(pairs.body.find((p) => p.base === 'PEPE')).toEqual({ base: 'PEPE', quote: 'USD', first_close_ts: '2026-01-01T01:00:00Z', last_close_ts: '2026-01-01T05:00:00Z' })
    // contract: catalog-order, base then quote
    const keys = pairs.body.map((p) => `${p.base}/${p.quote}`)
    expect(keys).toEqual([...keys].sort())
    const page = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD'))
    expect(page.body).toHaveLength(5)
    const agg = await get<{ base: string; first_close_ts: string }[]>(service, '/v1/aggregated_pairs?interval=1h')
    expect(agg.body.find((p) => p.base === 'PEPE')?.first_close_ts).toBe('2026-01-01T01:00:00Z')
  })

  test('putExchange and putAsset show in /v1/exchanges and /v1/assets, sorted by name and by ticker', async () => {
    const service = createMockService({ now: NOW })
    service.data.putExchange({ name: 'aaa-exchange', creation_date: '2020-01-01', closing_date: null })
    service.data.putAsset({ name: 'Zeta', asset_type: 'CRYPTO', ticker: 'AAA' })
    const exchanges = await get<{ name: string }[]>(service, '/v1/exchanges')
    expect(exchanges.body.map((e) => e.name)).toEqual(['aaa-exchange', 'bitstamp', 'ftx'])
    const assets = await get<{ ticker: string }[]>(service, '/v1/assets')
    expect(assets.body[0]).toEqual({ name: 'Zeta', asset_type: 'CRYPTO', ticker: 'AAA' })
    expect(assets.body.map((a) => a.ticker)).toEqual(assets.body.map((a) => a.ticker).sort())
  })

  test('a closing_date set by putExchange ends that exchange\'s served history there, the default data\'s too', async () => {
    const service = createMockService({ now: NOW })
    service.data.putExchange({ name: 'bitstamp', creation_date: '2011-08-01', closing_date: '2026-05-25' })
    const page = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=BTC&quote=USD&limit=2'))
    expect(page.body.map((c) => c.close_ts)).toEqual(['2026-05-24T23:00:00Z', '2026-05-25T00:00:00Z'])
    const pairs = await get<{ base: string; quote: string; last_close_ts: string }[]>(service, '/v1/exchange_pairs?exchange=bitstamp&interval=1h')
    expect(pairs.body.every((p) => p.last_close_ts <= '2026-05-25T00:00:00Z')).toBe(true)
    // and the history is refused past it
    expect(() => service.data.putCandles([candle('2026-05-26T00:00:00Z')])).toThrow(/closes after the exchange's closing_date 2026-05-25/)
  })

  test('aggregated candles are derived from the arranged exchange candles by omm_vwap_v1, so both endpoints agree', async () => {
    const service = createMockService({ now: NOW })
    service.data.putExchange({ name: 'kraken', creation_date: '2013-09-10', closing_date: null })
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    service.data.putCandles([
      candle('2026-01-01T01:00:00Z', { base: 'PEPE', open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200 }),
      candle('2026-01-01T01:00:00Z', { exchange: 'kraken', base: 'PEPE', open: 102, high: 112, low: 92, close: 100, base_volume: 3, quote_volume: 306 }),
      candle('2026-01-01T02:00:00Z', { exchange: 'kraken', base: 'PEPE', flag: 'outlier_excluded' }),
    ])
    const agg = await get<AggregatedCandle[]>(service, '/v1/aggregated_ohlcv?interval=1h&base=PEPE&quote=USD')
    expect(agg.body).toEqual([
      {
        method: 'omm_vwap_v1',
        interval: '1h',
        base: 'PEPE',
        quote: 'USD',
        close_ts: '2026-01-01T01:00:00Z',
        open: (100 * 2 + 102 * 3) / 5,
        high: (110 * 2 + 112 * 3) / 5,
        low: (90 * 2 + 92 * 3) / 5,
        close: 506 / 5,
        base_volume: 5,
        quote_volume: 506,
        exchanges: ['bitstamp', 'kraken'],
        flag: null,
      },
    ])
  })

  test('putting aggregated candles directly overrides the derived ones at those close times', async () => {
    const service = createMockService({ now: NOW })
    const url = '/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&limit=3'
    const before = await get<AggregatedCandle[]>(service, url)
    const put: AggregatedCandle = { ...before.body[1]!, open: 1, high: 2, low: 1, close: 2, base_volume: 1, quote_volume: 1.5, exchanges: ['bitstamp'], flag: 'outlier' }
    service.data.putCandles([put])
    const after = await get<AggregatedCandle[]>(service, url)
    expect(after.body).toEqual([before.body[0], put, before.body[2]])
  })

  test('a candle arranged in the future appears when the clock passes its close plus the publish delay', async () => {
    const service = createMockService({ now: '2026-06-01T00:00:00Z', publishDelayMs: 60_000 })
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    service.data.putCandles([candle('2026-06-01T01:00:00Z', { base: 'PEPE' })])
    expect((await get(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD'))).status).toBe(404)
    service.clock.set('2026-06-01T01:00:30Z')
    expect((await get(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD'))).status).toBe(404)
    service.clock.set('2026-06-01T01:01:00Z')
    const page = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD'))
    expect(page.body.map((c) => c.close_ts)).toEqual(['2026-06-01T01:00:00Z'])
  })

  test('with a running clock, a candle arranged in the future appears once the clock passes its close', async () => {
    // 36,000 times wall speed: an hour of service time every 100 wall milliseconds.
    const service = createMockService({ now: '2026-06-01T00:00:00Z', clockRate: 36_000 })
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    service.data.putCandles([candle('2026-06-01T06:00:00Z', { base: 'PEPE' })])
    const url = ohlcv('exchange=bitstamp&base=PEPE&quote=USD')
    const early = await get(service, url)
    if (service.clock.now() < Date.parse('2026-06-01T06:00:00Z')) expect(early.status).toBe(404)
    let page = await get<ExchangeCandle[]>(service, url)
    for (let waited = 0; page.status !== 200 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      page = await get<ExchangeCandle[]>(service, url)
    }
    expect(service.clock.now()).toBeGreaterThanOrEqual(Date.parse('2026-06-01T06:00:00Z'))
    expect(page.body.map((c) => c.close_ts)).toEqual(['2026-06-01T06:00:00Z'])
  })

  test('paging and inclusive bounds apply to arranged data: forward and backward walks meet every candle once', async () => {
    const service = createMockService({ now: NOW })
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    const rows = hourly('2026-01-01T01:00:00Z', 25, { base: 'PEPE' })
    service.data.putCandles(rows)
    const forward: string[] = []
    let start = '2026-01-01T01:00:00Z'
    for (;;) {
      const page = await get<ExchangeCandle[]>(service, ohlcv(`exchange=bitstamp&base=PEPE&quote=USD&limit=10&start=${start}`))
      if (page.body.length === 0) break
      forward.push(...page.body.map((c) => c.close_ts))
      start = new Date(Date.parse(page.body.at(-1)!.close_ts) + 1).toISOString()
    }
    expect(forward).toEqual(rows.map((r) => r.close_ts))
    const bounded = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD&start=2026-01-01T03:00:00Z&end=2026-01-01T05:00:00Z'))
    expect(bounded.body.map((c) => c.close_ts)).toEqual(['2026-01-01T03:00:00Z', '2026-01-01T04:00:00Z', '2026-01-01T05:00:00Z'])
    const backward = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD&limit=2&end=2026-01-01T05:00:00Z'))
    expect(backward.body.map((c) => c.close_ts)).toEqual(['2026-01-01T04:00:00Z', '2026-01-01T05:00:00Z'])
  })

  test('the plan\'s history depth applies to arranged data: a start older than the depth is a 403, a page without start stops at the horizon', async () => {
    const service = createMockService({ now: NOW })
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    // pro: exchange_ohlcv 1h P730D
    service.data.putCandles([candle('2023-01-01T00:00:00Z', { base: 'PEPE' }), candle('2026-01-01T00:00:00Z', { base: 'PEPE' })])
    expect((await get(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD&start=2023-01-01'), PRO)).status).toBe(403)
    const page = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=PEPE&quote=USD'), PRO)
    expect(page.body.map((c) => c.close_ts)).toEqual(['2026-01-01T00:00:00Z'])
  })
})

describe('arranging data: removeCandles, generate, load, reset', () => {
  test('removeCandles is an outage with inclusive bounds; the aggregate loses the exchange there', async () => {
    const service = createMockService({ now: NOW })
    const removed = service.data.removeCandles({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', from: '2026-05-01T10:00:00Z', to: '2026-05-01T12:00:00Z' })
    expect(removed).toEqual({ candles: 3 })
    const page = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&limit=2'))
    expect(page.body.map((c) => c.close_ts)).toEqual(['2026-05-01T09:00:00Z', '2026-05-01T13:00:00Z'])
    const agg = await get<AggregatedCandle[]>(service, '/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&limit=2')
    expect(agg.body.map((c) => c.close_ts)).toEqual(['2026-05-01T09:00:00Z', '2026-05-01T13:00:00Z'])
  })

  test('removeCandles with aggregated: true drops aggregated candles only', async () => {
    const service = createMockService({ now: NOW })
    service.data.removeCandles({ aggregated: true, interval: '1h', base: 'BTC', quote: 'USD', from: '2026-05-01T10:00:00Z', to: '2026-05-01T10:00:00Z' })
    const agg = await get<AggregatedCandle[]>(service, '/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&limit=2')
    expect(agg.body.map((c) => c.close_ts)).toEqual(['2026-05-01T09:00:00Z', '2026-05-01T11:00:00Z'])
    const raw = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&limit=2'))
    expect(raw.body.map((c) => c.close_ts)).toEqual(['2026-05-01T09:00:00Z', '2026-05-01T10:00:00Z'])
  })

  test('generate makes a procedural series from the default dataset\'s model, deterministic by seed', async () => {
    const a = createMockService({ now: NOW })
    const b = createMockService({ now: NOW })
    a.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    b.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    const spec = { exchange: 'bitstamp', interval: '1h', base: 'PEPE', quote: 'USD', from: '2025-01-01T00:30:00Z', to: '2025-12-31T23:59:00Z', seed: 7, price: 0.01 }
    expect(a.data.generate(spec)).toEqual({ candles: 8759 })
    b.data.generate(spec)
    const url = ohlcv('exchange=bitstamp&base=PEPE&quote=USD&start=2025-06-01&limit=50')
    const pa = await get<ExchangeCandle[]>(a, url)
    expect(pa.body).toEqual((await get<ExchangeCandle[]>(b, url)).body)
    expect(pa.body).toHaveLength(50)
    for (const c of pa.body) expect(c.low <= Math.min(c.open, c.close) && Math.max(c.open, c.close) <= c.high).toBe(true)
    const pairs = await get<{ base: string; first_close_ts: string; last_close_ts: string }[]>(a, '/v1/exchange_pairs?exchange=bitstamp&interval=1h')
    expect(pairs.body.find((p) => p.base === 'PEPE')).toMatchObject({ first_close_ts: '2025-01-01T01:00:00Z', last_close_ts: '2025-12-31T23:00:00Z' })
    b.data.generate({ ...spec, seed: 8 })
    expect((await get<ExchangeCandle[]>(b, url)).body).not.toEqual(pa.body)
  })

  test('load puts rows in memory like putCandles', async () => {
    const service = createMockService({ now: NOW })
    expect(await service.data.load([candle('2026-05-01T10:00:00Z', { close: 101 })])).toEqual({ candles: 1 })
    const page = await get<ExchangeCandle[]>(service, ohlcv('exchange=bitstamp&base=BTC&quote=USD&start=2026-05-01T10:00:00Z&limit=1'))
    expect(page.body[0]!.close).toBe(101)
    await expect(service.data.load([{ nonsense: true }])).rejects.toBeInstanceOf(DataError)
  })

  test('data.reset() and service.reset() give back the starting data', async () => {
    const service = createMockService({ now: NOW })
    const url = ohlcv('exchange=bitstamp&base=BTC&quote=USD&start=2026-05-01T10:00:00Z&limit=1')
    const start = await get(service, url)
    service.data.putCandles([candle('2026-05-01T10:00:00Z')])
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    service.data.reset()
    expect(await get(service, url)).toEqual(start)
    service.data.putCandles([candle('2026-05-01T10:00:00Z')])
    await service.reset()
    expect(await get(service, url)).toEqual(start)
    expect((await get<{ ticker: string }[]>(service, '/v1/assets')).body.some((a) => a.ticker === 'PEPE')).toBe(false)
  })
})

describe('arranging data: an aggregated candle is one without `exchange`', () => {
  test('a row with `exchanges` and `method` and no `exchange` (left out or undefined) is an aggregated candle; one with both is refused', async () => {
    const service = createMockService({ now: NOW })
    const base = candle('2026-05-01T10:00:00Z')
    service.data.putCandles([{ ...base, exchange: undefined, method: 'omm_vwap_v1', exchanges: ['bitstamp'] } as unknown as AggregatedCandle])
    const agg = await get<AggregatedCandle[]>(service, '/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&start=2026-05-01T10:00:00Z&limit=1')
    expect(agg.body[0]).toEqual({ method: 'omm_vwap_v1', interval: '1h', base: 'BTC', quote: 'USD', close_ts: '2026-05-01T10:00:00Z', open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, exchanges: ['bitstamp'], flag: null })
    expect(() => service.data.putCandles([{ ...base, method: 'omm_vwap_v1', exchanges: ['bitstamp'] } as unknown as AggregatedCandle])).toThrow(/either `exchange`.*not both/)
  })
})
