import { UsageError } from '../../usage-error.js'
import { groupedNumber } from './grouped-number.js'
import type { ExportFormat } from './export-format.js'

/** Rows per Parquet part file (one row group each) unless `--part-rows` says otherwise. */
export const DEFAULT_PART_ROWS = 100_000
/** Below this a part's footer and per-file overhead outweigh its rows, and a dataset becomes thousands of files. */
export const MIN_PART_ROWS = 1_000
/**
 * A part fills in memory on the output thread (56 bytes a row of typed arrays, a reference a row per
 * text column) and is encoded at once (column copies, the writer's levels and pages, the file's
 * bytes): peak RSS of an aggregated 1m export grew from 258 to 532 MB between 100,000 and 1,000,000
 * rows a part (2026-11-28), about 300 bytes a row. A million rows is a large row group for readers too.
 */
export const MAX_PART_ROWS = 1_000_000

const grouped = groupedNumber

/** `--part-rows N`: a whole number in range, with a Parquet output only. */
export function parsePartRows(text: string | undefined, format: ExportFormat): number | undefined {
  if (text === undefined) return undefined
  if (format !== 'parquet') throw new UsageError('--part-rows applies to --format parquet only')
  const rows = Number(text)
  if (!/^\d+$/.test(text) || rows < MIN_PART_ROWS || rows > MAX_PART_ROWS) {
    throw new UsageError(`--part-rows must be a whole number of rows from ${grouped(MIN_PART_ROWS)} to ${grouped(MAX_PART_ROWS)}, got '${text}'`)
  }
  return rows
}
