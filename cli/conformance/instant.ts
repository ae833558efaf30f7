import { parseDateTime } from '../../src/contract/index.js'

/**
 * The instant (epoch ms) a timestamp of an answer denotes, in any ISO 8601 form interface.md permits
 * (D13: `Z` or `z`, `+00:00`, `+0000`, `-00:00`, 0 to 9 fractional digits); NaN when it is not one
 * (the `openapi` rule reports that). Every rule reads `close_ts`, `first_close_ts` and
 * `last_close_ts` through this, never `Date.parse`, whose forms are the engine's.
 */
export function instantOf(text: unknown): number {
  if (typeof text !== 'string') return Number.NaN
  const parsed = parseDateTime(text)
  return parsed.ok ? parsed.ms : Number.NaN
}
