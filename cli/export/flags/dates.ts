import { UsageError } from '../../usage-error.js'

// The service's datetime grammar: a bare date, or a datetime with optional seconds, fraction and zone.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i

/** Parses a `--start`/`--end` value; a date or a datetime without zone is UTC. Epoch ms. */
export function parseFlagTime(flag: string, text: string): number {
  const m = ISO.exec(text.trim())
  const fail = () => new UsageError(`--${flag} must be an ISO 8601 date or datetime (2024-01-01, 2024-01-01T12:00:00Z), got '${text}'`)
  if (!m) throw fail()
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m
  const month = Number(mo)
  const day = Number(d)
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw fail()
  // Date.parse reads a zoneless datetime as local time; the service reads it as UTC.
  const normalized = `${y}-${mo}-${d}T${h}:${mi}:${s}${text.trim().match(/\.\d+/)?.[0] ?? ''}${zone === undefined ? 'Z' : zone.toUpperCase()}`
  const ms = Date.parse(normalized)
  // Rejects days past the month's end (2024-02-30), which Date.parse would roll over.
  if (!Number.isFinite(ms) || new Date(Date.UTC(Number(y), month - 1, day)).getUTCDate() !== day) throw fail()
  return ms
}

/** `YYYY-MM-DDTHH:MM:SSZ`, the service's own format, whole seconds. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
