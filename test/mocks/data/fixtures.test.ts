import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { FixtureError, createMockService, defaultDataset, proceduralStore } from '../../../mocks/index.js'
import { exchangeCandleSchema, INTERVAL_MS, INTERVALS } from '../../../src/schemas/index.js'
import { T0, candle, explicitDataset } from '../../support/fixtures.js'

describe('explicit fixtures: arrays are validated at load with an error that names the bad record', () => {
  const load = (patch: (d: ReturnType<typeof explicitDataset>) => void) => () => {
    const data = explicitDataset()
    patch(data)
    createMockService({ data })
  }

  test.each([
    ['a field of the wrong type', (d: any) => (d.candles[3].low = 'low'), /candles\[3\]\.low: expected number, got string/],
    ['an unknown interval', (d: any) => (d.candles[2].interval = '5m'), /candles\[2\].*interval '5m'/],
    ['low above open', (d: any) => (d.candles[4].low = d.candles[4].open + 1), /candles\[4\] \(alpha BTC\/USD 1h .*\): low .* is above high|open .* is outside/],
    ['an average price outside [low, high]', (d: any) => (d.candles[0].quote_volume = 0.001), /candles\[0\].*quote_volume \/ base_volume/],
    ['a negative volume', (d: any) => (d.candles[1].base_volume = -1), /candles\[1\].*volumes must be >= 0/],
    ['close_ts off the interval grid', (d: any) => (d.candles[5].close_ts = '2024-01-01T01:30:00Z'), /candles\[5\].*not on the 1h grid/],
    ['an unknown exchange', (d: any) => (d.candles[6].exchange = 'gamma'), /candles\[6\].*unknown exchange 'gamma'/],
    ['an unknown asset', (d: any) => (d.candles[7].quote = 'JPY'), /candles\[7\].*unknown asset 'JPY'/],
    ['a bad exchange record', (d: any) => (d.exchanges[1].creation_date = 'June'), /exchanges\[1\]\.creation_date/],
    ['a bad asset record', (d: any) => delete d.assets[2].ticker, /assets\[2\]\.ticker: expected string, got undefined/],
  ])('%s', (_what, patch, message) => {
    expect(load(patch)).toThrow(FixtureError)
    expect(load(patch)).toThrow(message)
  })

  test('two candles of one series at the same close_ts', () => {
    const data = explicitDataset()
    data.candles.push({ ...data.candles[0]! })
    expect(() => createMockService({ data })).toThrow(/two candles for alpha BTC\/USD 1h at 2024-01-01T01:00:00Z/)
  })

  test('plans, accounts and keys are validated and cross-checked', () => {
    expect(() => createMockService({ accounts: [{ id: 'a', plan: 'gold' }] })).toThrow(/accounts\[0\]: unknown plan 'gold'/)
    expect(() => createMockService({ keys: [{ key: 'k', account: 'nobody' }] })).toThrow(/keys\[0\]: unknown account 'nobody'/)
    expect(() => createMockService({ plans: [{ id: 'p', endpoints: { exchange_ohlcv: { '1h': 'P1M' } } }] })).toThrow(/plans\[0\]\.endpoints\.exchange_ohlcv\.1h/)
    expect(() => createMockService({ plans: [{ id: 'p', endpoints: {} }, { id: 'p', endpoints: {} }] })).toThrow(/plans\[1\]: duplicate id 'p'/)
  })

  test('close_ts is written YYYY-MM-DDTHH:MM:SSZ whatever the fixture wrote', async () => {
    const data = explicitDataset()
    data.candles = [{ ...candle('alpha', 'BTC/USD', '1h', T0 + 3_600_000, 100), close_ts: '2024-01-01T01:00:00.000Z' }]
    const service = createMockService({ data, now: '2024-02-01' })
    const res = await service.handle({ method: 'GET', url: '/v1/exchange_ohlcv?exchange=alpha&interval=1h&base=BTC&quote=USD', headers: { 'X-API-Key': 'demo-pro-key' } })
    expect((res.body as any)[0].close_ts).toBe('2024-01-01T01:00:00Z')
  })

  test('a candle outside its exchange\'s lifetime: after closing_date or before creation_date', () => {
    const late = explicitDataset()
    late.candles.push(candle('beta', 'ETH/USD', '1h', Date.UTC(2024, 0, 5, 1), 10))
    expect(() => createMockService({ data: late })).toThrow(/closes after the exchange's closing_date 2024-01-05/)
    const early = explicitDataset()
    early.candles.push(candle('beta', 'ETH/USD', '1d', Date.UTC(2020, 0, 1), 10))
    expect(() => createMockService({ data: early })).toThrow(/opens before the exchange's creation_date 2020-01-01/)
  })
})

describe('procedural fixtures: a candle is a deterministic function of (exchange, pair, interval, close_ts)', () => {
  const store = proceduralStore(defaultDataset)
  const series = defaultDataset.exchanges.flatMap((e) => INTERVALS.flatMap((i) => store.seriesOf(e.name, i)))
  const END = Date.UTC(2026, 0, 1)

  test('every candle keeps low <= open, close <= high, low <= quote_volume / base_volume <= high, volumes > 0, on the interval grid', () => {
    fc.assert(
      fc.property(fc.constantFrom(...series), fc.integer({ min: Date.UTC(2015, 0, 1), max: END }), (s, from) => {
        for (const { t, candle: c } of take(s.ascending(from, END), 50)) {
          expect(exchangeCandleSchema.safeParse(c).success).toBe(true)
          expect(t % INTERVAL_MS[s.interval]).toBe(0)
          expect(Date.parse(c.close_ts)).toBe(t)
          expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close))
          expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close))
          expect(c.base_volume).toBeGreaterThan(0)
          const avg = c.quote_volume / c.base_volume
          expect(avg).toBeGreaterThanOrEqual(c.low)
          expect(avg).toBeLessThanOrEqual(c.high)
        }
      }),
      { numRuns: 400 },
    )
  })

  test('the same coordinates give the same candle, walked forward or backward, from any store instance', () => {
    const again = proceduralStore(defaultDataset)
    const s = store.seriesOf('bitstamp', '1m')[0]!
    const twin = again.seriesOf('bitstamp', '1m')[0]!
    const from = Date.UTC(2023, 4, 1)
    const forward = take(s.ascending(from, from + 3_600_000), 100)
    const backward = take(twin.descending(from + 3_600_000, from), 100).reverse()
    expect(forward).toEqual(backward)
  })

  test('the default dataset is realistic: open and closed exchanges, pairs listed at different dates, outages, flags, close cross-exchange prices', () => {
    expect(defaultDataset.exchanges.filter((e) => e.closing_date === null)).toHaveLength(1)
    expect(defaultDataset.exchanges.filter((e) => e.closing_date !== null).length).toBeGreaterThanOrEqual(1)
    expect(new Set(defaultDataset.listings.map((l) => l.listed)).size).toBeGreaterThanOrEqual(5)
    expect(defaultDataset.exchanges.every((e) => (e.outages ?? []).length > 0)).toBe(true)
    // flags: some outlier and outlier_excluded candles in a few weeks of 1m
    const s = store.seriesOf('bitstamp', '1m').find((x) => x.base === 'BTC' && x.quote === 'USD')!
    const flags = new Map<string | null, number>()
    for (const { candle: c } of take(s.ascending(Date.UTC(2024, 0, 1), Infinity), 60_000)) flags.set(c.flag, (flags.get(c.flag) ?? 0) + 1)
    expect(flags.get('outlier')).toBeGreaterThan(0)
    expect(flags.get('outlier_excluded')).toBeGreaterThan(0)
    // the same pair on two exchanges stays within 1 %
    const a = store.seriesOf('bitstamp', '1h').find((x) => x.base === 'ETH' && x.quote === 'USD')!
    const b = store.seriesOf('ftx', '1h').find((x) => x.base === 'ETH' && x.quote === 'USD')!
    const t = Date.UTC(2021, 6, 1)
    const ca = take(a.ascending(t, t + 48 * 3_600_000), 48)
    const cb = take(b.ascending(t, t + 48 * 3_600_000), 48)
    ca.forEach((x, i) => expect(Math.abs(x.candle.close / cb[i]!.candle.close - 1)).toBeLessThan(0.01))
  })

  test('a page costs what it yields: a walk ten years back touches no other candle', () => {
    const s = store.seriesOf('bitstamp', '1m').find((x) => x.base === 'BTC' && x.quote === 'USD')!
    const page = take(s.ascending(Date.UTC(2016, 0, 1), Infinity), 1000)
    expect(page).toHaveLength(1000)
    expect(page[0]!.candle.close_ts).toBe('2016-01-01T00:00:00Z')
  })
})

function take<T>(items: Iterable<T>, n: number): T[] {
  const out: T[] = []
  for (const item of items) {
    if (out.length === n) break
    out.push(item)
  }
  return out
}
