import { parseDateTime } from '../../../src/contract/parse-datetime.js'
import { UsageError } from '../../usage-error.js'

/**
 * Parses a `--start`/`--end` value with the service's datetime grammar (src/contract: a date, or a
 * datetime with optional seconds, fraction and zone; without a zone it is UTC). Epoch ms, whole:
 * close times are whole milliseconds, so a start rounds up and an end down to the same candles.
 */
export function parseFlagTime(flag: 'start' | 'end', text: string): number {
  const parsed = parseDateTime(text.trim())
  if (!parsed.ok) throw new UsageError(`--${flag} must be an ISO 8601 date or datetime (2024-01-01, 2024-01-01T12:00:00Z), got '${text}': ${parsed.reason}`)
  return flag === 'start' ? Math.ceil(parsed.ms) : Math.floor(parsed.ms)
}
