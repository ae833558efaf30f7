import { describe, expect, test } from 'vitest'
import { badExchanges, negativeVolume, offGrid, ohlcOutOfOrder } from '../../cli/conformance/candle-invariants.js'

const candle = { close_ts: '2025-01-01T10:00:00Z', open: 10, high: 12, low: 9, close: 11, base_volume: 2, quote_volume: 21, exchanges: ['bitstamp', 'kraken'] }
const KNOWN = new Set(['bitstamp', 'ftx', 'kraken'])

describe('conformance: the candle data rules (docs/contract.md#candle-data)', () => {
  test('close_ts sits on its interval\'s grid: whole minutes, whole hours, 00:00:00Z', () => {
    expect(offGrid(candle, '1m')).toBeUndefined()
    expect(offGrid(candle, '1h')).toBeUndefined()
    expect(offGrid({ close_ts: '2025-01-01T00:00:00Z' }, '1d')).toBeUndefined()
    expect(offGrid(candle, '1d')).toMatch(/1d grid .* 2025-01-01T00:00:00Z or 2025-01-02T00:00:00Z/)
    expect(offGrid({ close_ts: '2025-01-01T10:00:30Z' }, '1m')).toMatch(/2025-01-01T10:00:00Z or 2025-01-01T10:01:00Z/)
    expect(offGrid({ close_ts: '2025-01-01T10:30:00Z' }, '1h')).toBeDefined()
    // An interval without a known grid, or a close_ts that is not a datetime (the openapi rule's), is not judged.
    expect(offGrid({ close_ts: '2025-01-01T10:00:30Z' }, '4h')).toBeUndefined()
    expect(offGrid({ close_ts: 'soon' }, '1m')).toBeUndefined()
  })

  test('low <= open <= high and low <= close <= high', () => {
    expect(ohlcOutOfOrder(candle)).toBeUndefined()
    expect(ohlcOutOfOrder({ ...candle, open: 9, close: 12 })).toBeUndefined()
    expect(ohlcOutOfOrder({ ...candle, open: 13 })).toMatch(/open 13/)
    expect(ohlcOutOfOrder({ ...candle, close: 8.5 })).toMatch(/close 8.5/)
    expect(ohlcOutOfOrder({ ...candle, high: 9, low: 12 })).toBeDefined()
    // A price of the wrong type is the openapi rule's failure.
    expect(ohlcOutOfOrder({ ...candle, open: '13' })).toBeUndefined()
  })

  test('base_volume >= 0 and quote_volume >= 0', () => {
    expect(negativeVolume(candle)).toBeUndefined()
    expect(negativeVolume({ ...candle, base_volume: 0, quote_volume: 0 })).toBeUndefined()
    expect(negativeVolume({ ...candle, base_volume: -2 })).toBe('base_volume >= 0 (got base_volume -2)')
    expect(negativeVolume({ ...candle, quote_volume: -0.5 })).toBe('quote_volume >= 0 (got quote_volume -0.5)')
  })

  test("an aggregated candle's exchanges: at least one, ascending, each once, each listed by /v1/exchanges", () => {
    expect(badExchanges(candle, KNOWN)).toBeUndefined()
    expect(badExchanges({ exchanges: [] }, KNOWN)).toMatch(/at least one/)
    expect(badExchanges({ exchanges: ['kraken', 'bitstamp'] }, KNOWN)).toMatch(/ascending, each once: \["bitstamp","kraken"\]/)
    expect(badExchanges({ exchanges: ['bitstamp', 'bitstamp'] }, KNOWN)).toMatch(/each once: \["bitstamp"\]/)
    expect(badExchanges({ exchanges: ['Bitstamp'] }, KNOWN)).toMatch(/not listed: Bitstamp/)
    expect(badExchanges({ exchanges: 'bitstamp' }, KNOWN)).toBeUndefined()
  })
})
