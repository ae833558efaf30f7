import type { CandleEndpointName } from '../contract/index.js'
import type { FollowCursor, FollowManyCursor } from './follow-types.js'

const ENDPOINTS: readonly CandleEndpointName[] = ['exchange_ohlcv', 'aggregated_ohlcv']

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Checks a stored follow cursor's shape (no zod: the client bundle stays small); the endpoint's own
 * parameter rules are checked by the client after this. Throws a `TypeError` naming the problem.
 */
export function checkFollowCursor(value: unknown, where = 'cursor'): FollowCursor {
  if (!isRecord(value)) throw new TypeError(`Not a follow cursor: ${where} must be an object`)
  if (value.version !== 1) throw new TypeError(`Not a follow cursor: ${where}.version must be 1`)
  if (value.kind !== 'follow') throw new TypeError(`Not a follow cursor: ${where}.kind must be 'follow'`)
  if (!ENDPOINTS.includes(value.endpoint as CandleEndpointName)) throw new TypeError(`Not a follow cursor: ${where}.endpoint must be 'exchange_ohlcv' or 'aggregated_ohlcv'`)
  if (!isRecord(value.query)) throw new TypeError(`Not a follow cursor: ${where}.query must be an object`)
  for (const [name, v] of Object.entries(value.query)) {
    if (typeof v !== 'string') throw new TypeError(`Not a follow cursor: ${where}.query.${name} must be a string`)
  }
  return { version: 1, kind: 'follow', endpoint: value.endpoint as CandleEndpointName, query: { ...(value.query as Record<string, string>) } }
}

/** Checks a stored cursor of `followMany` or of a one-series follow; tells which it is. */
export function checkAnyFollowCursor(value: unknown): FollowCursor | FollowManyCursor {
  if (isRecord(value) && value.kind === 'follow-many') {
    if (value.version !== 1) throw new TypeError('Not a follow cursor: cursor.version must be 1')
    if (!Array.isArray(value.series) || value.series.length === 0) throw new TypeError('Not a follow cursor: cursor.series must be a non-empty array')
    return { version: 1, kind: 'follow-many', series: value.series.map((s, i) => checkFollowCursor(s, `cursor.series[${i}]`)) }
  }
  return checkFollowCursor(value)
}
