import type { AggregatedCandle, ExchangeCandle } from '../../src/schemas/index.js'
import { timestampSchema } from '../../src/schemas/index.js'

/*
 * The common case of a batch of 100,000 candles, without zod: a row whose every field has the type
 * the schema wants is copied field by field (as zod's parse copies it, unknown keys left out). Any
 * other row returns undefined and goes to the schema, which names its issues. It only accepts what
 * `exchangeCandleSchema` / `aggregatedCandleSchema` accept (a test pins the field lists to the
 * schemas' shapes and compares both on every kind of bad row); zod costs about 20 µs a row here.
 */

// The schema's own pattern, so the datetime rule is the schema's, never a copy of it.
const TIMESTAMP = (timestampSchema as unknown as { _zod: { def: { pattern: RegExp } } })._zod.def.pattern

/** The fields of an exchange candle, in the schema's order, by kind. */
export const EXCHANGE_FIELDS = ['exchange', 'interval', 'base', 'quote', 'close_ts', 'open', 'high', 'low', 'close', 'base_volume', 'quote_volume', 'source_provider', 'source_channel', 'flag'] as const
/** The fields of an aggregated candle, in the schema's order. */
export const AGGREGATED_FIELDS = ['method', 'interval', 'base', 'quote', 'close_ts', 'open', 'high', 'low', 'close', 'base_volume', 'quote_volume', 'exchanges', 'flag'] as const

type Row = Record<string, unknown>

const isText = (v: unknown): v is string => typeof v === 'string'
// zod's number refuses NaN and ±Infinity.
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function numbersAndTimeOk(r: Row): boolean {
  return (
    isText(r.close_ts) &&
    TIMESTAMP.test(r.close_ts) &&
    isNumber(r.open) &&
    isNumber(r.high) &&
    isNumber(r.low) &&
    isNumber(r.close) &&
    isNumber(r.base_volume) &&
    isNumber(r.quote_volume) &&
    (r.flag === null || isText(r.flag)) &&
    isText(r.interval) &&
    isText(r.base) &&
    isText(r.quote)
  )
}

/** An exchange candle as `exchangeCandleSchema.parse` would give it, or undefined when the schema must judge the row. */
export function fastExchangeCandle(row: object): ExchangeCandle | undefined {
  const r = row as Row
  if (!(numbersAndTimeOk(r) && isText(r.exchange) && isText(r.source_provider) && isText(r.source_channel))) return undefined
  return {
    exchange: r.exchange,
    interval: r.interval as string,
    base: r.base as string,
    quote: r.quote as string,
    close_ts: r.close_ts as string,
    open: r.open as number,
    high: r.high as number,
    low: r.low as number,
    close: r.close as number,
    base_volume: r.base_volume as number,
    quote_volume: r.quote_volume as number,
    source_provider: r.source_provider,
    source_channel: r.source_channel,
    flag: r.flag as string | null,
  }
}

/** An aggregated candle as `aggregatedCandleSchema.parse` would give it, or undefined when the schema must judge the row. */
export function fastAggregatedCandle(row: object): AggregatedCandle | undefined {
  const r = row as Row
  if (!(numbersAndTimeOk(r) && isText(r.method) && Array.isArray(r.exchanges) && r.exchanges.every(isText))) return undefined
  return {
    method: r.method,
    interval: r.interval as string,
    base: r.base as string,
    quote: r.quote as string,
    close_ts: r.close_ts as string,
    open: r.open as number,
    high: r.high as number,
    low: r.low as number,
    close: r.close as number,
    base_volume: r.base_volume as number,
    quote_volume: r.quote_volume as number,
    exchanges: [...(r.exchanges as string[])],
    flag: r.flag as string | null,
  }
}
