import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { AGGREGATED_FIELDS, EXCHANGE_FIELDS, fastAggregatedCandle, fastExchangeCandle } from '../../mocks/core/fast-candle-parse.js'
import { candleProblems, candleRulesHold } from '../../mocks/data/candle-rules.js'
import { aggregatedCandleSchema, exchangeCandleSchema } from '../../src/schemas/index.js'

const EXCHANGE = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts: '2025-01-01T10:00:00Z', open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, source_provider: 'p', source_channel: 'c', flag: null }
const { exchange: _e, source_provider: _p, source_channel: _c, ...common } = EXCHANGE
const AGGREGATED = { method: 'omm_vwap_v1', ...common, exchanges: ['bitstamp', 'kraken'] }

// Values a field may hold in a batch, good and bad.
const anyValue = fc.oneof(
  fc.constantFrom('2025-01-01T10:00:00Z', '2025-01-01T10:00:00.000Z', '2025-02-29T10:00:00Z', '2024-02-29T10:00:00Z', '2025-01-01T10:00Z', '2025-01-01T10:00:00+00:00', '', 'BTC', '1h', 'outlier'),
  fc.string(),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 0, 1e308),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
  fc.constant({}),
)

/** A valid row with some fields replaced, some dropped, maybe an unknown one added. */
const mutated = (base: Record<string, unknown>) =>
  fc.record({ replace: fc.dictionary(fc.constantFrom(...Object.keys(base)), anyValue, { maxKeys: 3 }), drop: fc.subarray(Object.keys(base), { maxLength: 2 }), extra: fc.option(anyValue) }).map(({ replace, drop, extra }) => {
    const row: Record<string, unknown> = { ...base, ...replace }
    for (const key of drop) delete row[key]
    if (extra !== null) row.unknown_field = extra
    return row
  })

describe('the fast candle check of a batch agrees with the schemas (a row it accepts, zod accepts with the same data)', () => {
  test('its field lists are the schemas\' shapes, in order', () => {
    expect([...EXCHANGE_FIELDS]).toEqual(Object.keys(exchangeCandleSchema.def.shape))
    expect([...AGGREGATED_FIELDS]).toEqual(Object.keys(aggregatedCandleSchema.def.shape))
  })

  test.each([
    ['exchange', EXCHANGE, fastExchangeCandle, exchangeCandleSchema],
    ['aggregated', AGGREGATED, fastAggregatedCandle, aggregatedCandleSchema],
  ] as const)('%s candles: accepted fast only when the schema accepts, with equal output; a valid row is accepted fast', (_kind, base, fast, schema) => {
    expect(fast(base)).toEqual(schema.parse(base))
    fc.assert(
      fc.property(mutated(base), (row) => {
        const quick = fast(row)
        const parsed = schema.safeParse(row)
        if (quick !== undefined) {
          expect(parsed.success).toBe(true)
          expect(quick).toStrictEqual(parsed.data)
        }
      }),
      { numRuns: 3000 },
    )
  })
})

describe('candleRulesHold is true exactly when candleProblems finds nothing', () => {
  test('over random prices, volumes, intervals and close times', () => {
    const price = fc.oneof(fc.double({ min: -10, max: 300, noNaN: true }), fc.constantFrom(0, 90, 100, 110))
    fc.assert(
      fc.property(
        fc.record({ interval: fc.constantFrom('1m', '1h', '1d', '5m'), close_ts: fc.constantFrom('2025-01-01T10:00:00Z', '2025-01-01T10:00:30Z', '2025-01-01T00:00:00Z'), open: price, high: price, low: price, close: price, base_volume: price, quote_volume: price }),
        fc.boolean(),
        (c, vwap) => {
          expect(candleRulesHold(c, vwap, Date.parse(c.close_ts))).toBe(candleProblems(c, vwap).length === 0)
        },
      ),
      { numRuns: 5000 },
    )
  })
})
