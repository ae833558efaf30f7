import { describe, expect, test } from 'vitest'
import { exchangeOhlcvQuerySchema, rawQueryOf, toValidationIssues } from '../../src/contract/index.js'
import {
  aggregatedCandleSchema,
  assetSchema,
  exchangeCandleSchema,
  isKnownAssetType,
  isKnownFlag,
  isKnownInterval,
  type ExchangeCandle,
} from '../../src/schemas/index.js'

const candle: ExchangeCandle = {
  exchange: 'bitstamp',
  interval: '1h',
  base: 'BTC',
  quote: 'USD',
  close_ts: '2024-05-01T09:00:00Z',
  open: 1,
  high: 2,
  low: 0.5,
  close: 1.5,
  base_volume: 1,
  quote_volume: 1.2,
  source_provider: 'p',
  source_channel: 'c',
  flag: null,
}

describe('a new enum value from the service does not break callers', () => {
  test('an unknown flag, asset_type, interval or method passes validation unchanged', () => {
    expect(exchangeCandleSchema.parse({ ...candle, flag: 'stale', interval: '5m' })).toMatchObject({ flag: 'stale', interval: '5m' })
    expect(assetSchema.parse({ name: 'Gold', asset_type: 'COMMODITY', ticker: 'XAU' }).asset_type).toBe('COMMODITY')
    const agg = { ...candle, method: 'omm_vwap_v2', exchanges: ['a'] } as Record<string, unknown>
    delete agg.exchange
    delete agg.source_channel
    delete agg.source_provider
    expect(aggregatedCandleSchema.parse(agg).method).toBe('omm_vwap_v2')
  })

  test('type guards tell known values from newer ones', () => {
    expect(isKnownFlag('outlier')).toBe(true)
    expect(isKnownFlag('stale')).toBe(false)
    expect(isKnownFlag(null)).toBe(false)
    expect(isKnownAssetType('FIAT')).toBe(true)
    expect(isKnownInterval('5m')).toBe(false)
  })

  test('a wrong type still fails: a number where a flag string belongs', () => {
    expect(exchangeCandleSchema.safeParse({ ...candle, flag: 3 }).success).toBe(false)
    expect(exchangeCandleSchema.safeParse({ ...candle, close_ts: 'yesterday' }).success).toBe(false)
  })
})

describe('query schemas report the issues of the service 422 body', () => {
  test('input is the raw value as received; missing is null', () => {
    const raw = rawQueryOf(new URLSearchParams('exchange=x&interval=1h&base=B&limit=abc'))
    const result = exchangeOhlcvQuerySchema.safeParse(raw)
    expect(result.success).toBe(false)
    expect(toValidationIssues(result.error!.issues, raw)).toEqual([
      { type: 'missing', loc: ['query', 'quote'], msg: 'Field required', input: null },
      { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'abc' },
    ])
  })

  test('start <= end compares the exact instants, sub-millisecond digits included', () => {
    for (const [start, end, ok] of [
      ['2024-05-01T00:00:00.0005Z', '2024-05-01T00:00:00.0005Z', true],
      ['2024-05-01T00:00:00.0005Z', '2024-05-01T00:00:00.0009Z', true],
      ['2024-05-01T00:00:00.0009Z', '2024-05-01T00:00:00.0005Z', false],
    ] as const) {
      const raw = { exchange: 'x', interval: '1h', base: 'B', quote: 'Q', start, end }
      expect(exchangeOhlcvQuerySchema.safeParse(raw).success, `${start} <= ${end}`).toBe(ok)
    }
  })

  test('a valid query parses to typed values, start/end in epoch ms', () => {
    const raw = rawQueryOf(new URLSearchParams('exchange=x&interval=1h&base=B&quote=Q&start=2024-01-01&end=2024-01-02T00:00:00.0009Z&limit=7&ignored=1'))
    expect(exchangeOhlcvQuerySchema.parse(raw)).toEqual({ exchange: 'x', interval: '1h', base: 'B', quote: 'Q', start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 0, 2) + 0.9, limit: 7 })
  })
})
