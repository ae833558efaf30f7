import type { ResolvedVariant } from './service-variant.js'
import { writeTimestamp } from './timestamp-form.js'

/** The timestamp fields of interface.md's records. */
const TIMESTAMP_FIELDS = new Set(['close_ts', 'first_close_ts', 'last_close_ts'])

/** The fields whose values name a record, joined into the extra `id`. */
const ID_FIELDS = ['exchange', 'method', 'name', 'ticker', 'interval', 'base', 'quote', 'close_ts'] as const

/** Whether the variant changes records at all (else a page passes as it is, no copy). */
export const changesRecords = (v: ResolvedVariant): boolean => v.timestamps !== 'Z' || v.nullFields === 'omit' || v.extraFields

/**
 * The records of a 200 answer as the variant writes them: timestamps in its form, null fields left
 * out (`omit`), extra fields added. Each record is a new object: the store's candles are shared.
 */
export function writeRecords(body: unknown, v: ResolvedVariant): unknown {
  if (!Array.isArray(body) || !changesRecords(v)) return body
  return body.map((record) => (typeof record === 'object' && record !== null ? writeRecord(record as Record<string, unknown>, v) : record))
}

function writeRecord(record: Record<string, unknown>, v: ResolvedVariant): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (v.extraFields) out.id = ID_FIELDS.filter((f) => typeof record[f] === 'string').map((f) => record[f]).join(':')
  for (const key in record) {
    const value = record[key]
    if (value === null && v.nullFields === 'omit') continue
    out[key] = typeof value === 'string' && TIMESTAMP_FIELDS.has(key) ? writeTimestamp(value, v.timestamps) : value
  }
  // A candle's extra timestamp, in a form of its own: a reader must not take it for close_ts.
  if (v.extraFields && typeof record.close_ts === 'string') out.ingested_at = ingestedAt(record.close_ts)
  return out
}

function ingestedAt(closeTs: string): string {
  const ms = Date.parse(closeTs)
  return Number.isNaN(ms) ? closeTs : new Date(ms + 2500).toISOString().replace('Z', '000+00:00')
}
