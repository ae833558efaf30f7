import { stringify } from 'csv-stringify/sync'
import { columnsOf, type Kind } from '../columns.js'
// The parser lives beside the reader of exports; the sink checks lines it wrote with it on resume.
export { parseCsvLine } from '../../../../mocks/data/export-files/lines/csv-line.js'
import type { AnyCandle } from '../sink.js'

/** The header line of a kind's CSV file, newline included. */
export function csvHeader(kind: Kind): string {
  return `${columnsOf(kind).join(',')}\n`
}

/**
 * One page as CSV records (RFC 4180, by csv-stringify: a field holding a comma, a quote or a line
 * break is quoted, its quotes doubled), columns in EXCHANGE_COLUMNS / AGGREGATED_COLUMNS order;
 * `exchanges` is JSON text, a null `flag` an empty field, numbers JavaScript's shortest round-trip
 * text. A hand-written template took a quarter of the CPU per page, which an export at the rate
 * limit never feels (reference-service.md, "Hand-written code kept").
 */
export function csvLines(kind: Kind, candles: readonly AnyCandle[]): string {
  return stringify(candles as unknown as Array<Record<string, unknown>>, { columns: [...columnsOf(kind)], cast: { object: (value) => JSON.stringify(value) } })
}
