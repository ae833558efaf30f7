/**
 * The column order of CSV files and SQLite tables: the resource's fields in the API's own order.
 * Documented in docs/export.md; changing it breaks users' files. The export's sinks (cli/) write
 * them and `load()` reads them back (this folder), so they live here, in the lower layer.
 */
export const EXCHANGE_COLUMNS = [
  'exchange',
  'interval',
  'base',
  'quote',
  'close_ts',
  'open',
  'high',
  'low',
  'close',
  'base_volume',
  'quote_volume',
  'source_provider',
  'source_channel',
  'flag',
] as const

export const AGGREGATED_COLUMNS = [
  'method',
  'interval',
  'base',
  'quote',
  'close_ts',
  'open',
  'high',
  'low',
  'close',
  'base_volume',
  'quote_volume',
  'exchanges',
  'flag',
] as const

/** The fields that are numbers (double precision) in both kinds, in column order. */
export const PRICE_COLUMNS = ['open', 'high', 'low', 'close', 'base_volume', 'quote_volume'] as const

export type Kind = 'exchange' | 'aggregated'

export function columnsOf(kind: Kind): readonly string[] {
  return kind === 'exchange' ? EXCHANGE_COLUMNS : AGGREGATED_COLUMNS
}
