import { parseTimestamp } from '../../src/contract/index.js'

/**
 * The instant (epoch ms) a timestamp of an answer denotes, read by the one close-time parser the SDK
 * uses (src/contract/close-time.ts: every ISO 8601 form D13 lists, `Z` or `z`, `+00:00`, `+0000`,
 * `-00:00`, 0 to 9 fractional digits); NaN when it is not one (the `openapi` rule reports that).
 * Every rule reads `close_ts`, `first_close_ts` and `last_close_ts` through this, never `Date.parse`,
 * whose forms are the engine's.
 */
export function instantOf(text: unknown): number {
  return typeof text === 'string' ? parseTimestamp(text) : Number.NaN
}

/**
 * A date (`closing_date`, `YYYY-MM-DD`) as the instant of its midnight UTC; NaN when it is not one.
 */
export function midnightOf(date: unknown): number {
  return typeof date === 'string' && /^\d{4}-\d\d-\d\d$/.test(date) ? parseTimestamp(`${date}T00:00:00Z`) : Number.NaN
}
