import { parseDateTime } from './parse-datetime.js'
import type { ParamResult } from './query-param.js'

/** The bounds of the `limit` parameter of both candle endpoints. */
export const LIMIT = { min: 1, max: 1000, default: 500 } as const

/**
 * A non-empty string. An empty value is reported like a missing one, as an empty `X-API-Key` is
 * (contract: authentication).
 */
export function text<T extends string = string>(raw: string): ParamResult<T> {
  return raw === '' ? { type: 'missing', msg: 'Field required' } : { value: raw as T }
}

/** An integer in `LIMIT.min..LIMIT.max`. */
export function limit(raw: string): ParamResult<number> {
  if (!/^[+-]?\d+$/.test(raw.trim())) {
    return { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' }
  }
  const n = Number(raw)
  if (n < LIMIT.min) {
    return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${LIMIT.min}`, ctx: { ge: LIMIT.min } }
  }
  if (n > LIMIT.max) {
    return { type: 'less_than_equal', msg: `Input should be less than or equal to ${LIMIT.max}`, ctx: { le: LIMIT.max } }
  }
  return { value: n }
}

/** A datetime (contract: time) in epoch ms; sub-millisecond digits stay as a fraction so bounds compare exactly. */
export function datetime(raw: string): ParamResult<number> {
  const parsed = parseDateTime(raw)
  if (!parsed.ok) {
    return {
      type: 'datetime_from_date_parsing',
      msg: `Input should be a valid datetime or date, ${parsed.reason}`,
      ctx: { error: parsed.reason },
    }
  }
  return { value: parsed.ms }
}
