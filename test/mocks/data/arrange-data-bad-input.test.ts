import { describe, expect, test } from 'vitest'
import { DataError, createMockService, type DataIssue, type MockService } from '../../../mocks/index.js'
import type { ExchangeCandle } from '../../../src/schemas/index.js'

const NOW = '2026-06-01T00:00:00Z'
const ENTERPRISE = { 'x-api-key': 'demo-enterprise-key' }

function candle(close_ts: string, over: Record<string, unknown> = {}): ExchangeCandle {
  return { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts, open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, source_provider: 'test', source_channel: 'test', flag: null, ...over } as ExchangeCandle
}

function issuesOf(run: () => unknown): DataIssue[] {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(DataError)
    return (error as DataError).issues
  }
  throw new Error('expected a DataError')
}

/** What the service serves, to check that a refused change left it as it was. */
async function snapshot(service: MockService) {
  const urls = ['/v1/exchanges', '/v1/assets', '/v1/exchange_pairs?exchange=bitstamp&interval=1h', '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=2026-05-01&limit=50']
  return Promise.all(urls.map(async (url) => (await service.handle({ method: 'GET', url, headers: ENTERPRISE })).body))
}

describe('bad input: a clear error naming every bad row by index and rule, and nothing changes', () => {
  const rules: Array<[rule: string, row: ExchangeCandle | Record<string, unknown>, field: string | undefined, message: RegExp]> = [
    ['the schema: a field of the wrong type', candle('2026-05-01T10:00:00Z', { low: '90' }), 'low', /expected number, got string/],
    ['the schema: a field left out', (({ open: _, ...rest }) => rest)(candle('2026-05-01T10:00:00Z')), 'open', /expected number/],
    ['a candle off its interval\'s grid', candle('2026-05-01T10:30:00Z'), 'close_ts', /not on the 1h grid/],
    ['low above high', candle('2026-05-01T10:00:00Z', { low: 111 }), 'low', /low 111 is above high 110/],
    ['open outside [low, high]', candle('2026-05-01T10:00:00Z', { open: 120 }), 'open', /open 120 is outside \[low 90, high 110\]/],
    ['close outside [low, high]', candle('2026-05-01T10:00:00Z', { close: 80 }), 'close', /close 80 is outside/],
    ['a negative volume', candle('2026-05-01T10:00:00Z', { base_volume: -1 }), 'base_volume', /negative/],
    ['an unknown interval', candle('2026-05-01T10:00:00Z', { interval: '5m' }), 'interval', /interval '5m' is not one of 1m, 1h, 1d/],
    ['an unknown asset', candle('2026-05-01T10:00:00Z', { base: 'NOPE' }), 'base', /unknown asset 'NOPE'/],
    ['an unknown exchange', candle('2026-05-01T10:00:00Z', { exchange: 'nowhere' }), 'exchange', /unknown exchange 'nowhere'/],
    ['a candle outside its exchange\'s lifetime', candle('2023-01-01T00:00:00Z', { exchange: 'ftx' }), 'close_ts', /closes after the exchange's closing_date 2022-11-11/],
    ['a candle before its exchange\'s creation', candle('2011-07-31T00:00:00Z'), 'close_ts', /opens before the exchange's creation_date/],
    ['an aggregated candle of an unknown method', { ...(({ exchange: _, source_provider: __, source_channel: ___, ...rest }) => rest)(candle('2026-05-01T10:00:00Z')), method: 'median_v9', exchanges: ['bitstamp'] }, 'method', /unknown method 'median_v9'/],
  ]

  test.each(rules)('%s is refused, and nothing changes', async (_rule, row, field, message) => {
    const service = createMockService({ now: NOW })
    const before = await snapshot(service)
    const good = candle('2026-05-01T09:00:00Z', { close: 100 })
    const issues = issuesOf(() => service.data.putCandles([good, row as ExchangeCandle]))
    expect(issues.length).toBeGreaterThan(0)
    for (const issue of issues) expect(issue.index).toBe(1)
    expect(issues.some((i) => i.field === field && message.test(i.message))).toBe(true)
    expect(await snapshot(service)).toEqual(before)
  })

  test('duplicates within a batch at the same close time are refused, naming both rows', () => {
    const service = createMockService({ now: NOW })
    const issues = issuesOf(() => service.data.putCandles([candle('2026-05-01T10:00:00Z'), candle('2026-05-01T11:00:00Z'), candle('2026-05-01T10:00:00Z')]))
    expect(issues).toEqual([{ index: 2, field: 'close_ts', message: expect.stringMatching(/same series and close_ts as candles\[0\]/) }])
  })

  test('every bad row is named; the message lists the first 20 and "and N more"', () => {
    const service = createMockService({ now: NOW })
    const rows = Array.from({ length: 30 }, (_, i) => candle(`2026-05-01T${String(i % 24).padStart(2, '0')}:00:00Z`, { low: 200, interval: i < 24 ? '1h' : '1d' }))
    let error: DataError | undefined
    try {
      service.data.putCandles(rows)
    } catch (e) {
      error = e as DataError
    }
    expect(error).toBeInstanceOf(DataError)
    expect(new Set(error!.issues.map((i) => i.index))).toEqual(new Set(rows.map((_, i) => i)))
    expect(error!.message).toMatch(/^putCandles refused 30 bad rows, nothing changed:\n {2}candles\[0\]\.low: low 200 is above high 110/)
    expect(error!.message).toMatch(/\n {2}and \d+ more$/)
    expect(error!.message.split('\n')).toHaveLength(1 + 20 + 1)
  })

  test('from > to is refused by removeCandles and generate', () => {
    const service = createMockService({ now: NOW })
    const selector = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', from: '2026-05-02', to: '2026-05-01' }
    expect(issuesOf(() => service.data.removeCandles(selector))).toEqual([{ index: 0, field: 'to', message: 'from 2026-05-02 is after to 2026-05-01' }])
    expect(issuesOf(() => service.data.generate(selector))).toEqual([{ index: 0, field: 'to', message: 'from 2026-05-02 is after to 2026-05-01' }])
  })

  test('removeCandles and generate name every bad field: unknown exchange, interval, assets, unparseable bounds', () => {
    const service = createMockService({ now: NOW })
    const issues = issuesOf(() => service.data.removeCandles({ exchange: 'nowhere', interval: '5m', base: 'NOPE', quote: 'USD', from: 'yesterday' }))
    expect(issues.map((i) => i.field)).toEqual(['exchange', 'interval', 'base', 'from'])
    const spec = issuesOf(() => service.data.generate({ exchange: 'ftx', interval: '1h', base: 'BTC', quote: 'USD', from: '2022-11-01', to: '2022-11-02', price: -1 }))
    expect(spec.map((i) => i.field)).toEqual(['price'])
    const life = issuesOf(() => service.data.generate({ exchange: 'ftx', interval: '1h', base: 'BTC', quote: 'USD', from: '2022-11-01', to: '2023-01-01' }))
    expect(life).toEqual([{ index: 0, field: 'to', message: expect.stringMatching(/closes after the exchange's closing_date 2022-11-11/) }])
    expect(() => service.data.removeCandles({ aggregated: true, exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' } as never)).toThrow(/either `exchange` or `aggregated: true`/)
  })

  test('putExchange and putAsset check the schema and the dates', () => {
    const service = createMockService({ now: NOW })
    expect(issuesOf(() => service.data.putExchange({ name: 'x', creation_date: '2020-01-01', closing_date: '2019-01-01' }))[0]).toMatchObject({ field: 'closing_date' })
    // A closing_date left out reads as null, as the SDK reads it (D13): only the bad date is named.
    expect(issuesOf(() => service.data.putExchange({ name: 'x', creation_date: 'soon' } as never)).map((i) => i.field)).toEqual(['creation_date'])
    expect(issuesOf(() => service.data.putExchange({ name: 'x', creation_date: 'soon', closing_date: 7 } as never)).map((i) => i.field)).toEqual(['creation_date', 'closing_date'])
    expect(issuesOf(() => service.data.putAsset({ name: 'x', ticker: 'X' } as never)).map((i) => i.field)).toEqual(['asset_type'])
  })

  test('a batch of 100,000 candles is accepted', async () => {
    const service = createMockService({ now: NOW })
    service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    const start = Date.parse('2014-01-01T00:00:00Z')
    const rows = Array.from({ length: 100_000 }, (_, i) => candle(new Date(start + i * 3_600_000).toISOString(), { base: 'PEPE' }))
    // Shuffled: put sorts what it gets.
    rows.reverse()
    expect(service.data.putCandles(rows)).toEqual({ candles: 100_000 })
    const page = await service.handle({ method: 'GET', url: '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=PEPE&quote=USD&start=2014-01-01&limit=2', headers: ENTERPRISE })
    expect((page.body as ExchangeCandle[]).map((c) => c.close_ts)).toEqual(['2014-01-01T00:00:00Z', '2014-01-01T01:00:00Z'])
    const pairs = await service.handle({ method: 'GET', url: '/v1/exchange_pairs?exchange=bitstamp&interval=1h' })
    expect((pairs.body as { base: string; last_close_ts: string }[]).find((p) => p.base === 'PEPE')!.last_close_ts).toBe(new Date(start + 99_999 * 3_600_000).toISOString().replace('.000Z', 'Z'))
  }, 60_000)
})
