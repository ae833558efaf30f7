import { readFileSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { parseCsvLine } from '../../../cli/export/sinks/lines/csv-format.js'

/** Every row of a table, as plain objects, in primary key order. */
export function sqliteRows(path: string, table: 'exchange_candles' | 'aggregated_candles'): Record<string, unknown>[] {
  const db = new DatabaseSync(path, { readOnly: true })
  try {
    return db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4, 5`).all().map((r) => ({ ...r }))
  } finally {
    db.close()
  }
}

/** A CSV file's header and rows (fields as text). */
export function csvFile(path: string): { header: string[]; rows: string[][]; text: string } {
  const text = readFileSync(path, 'utf8')
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return { header: parseCsvLine(lines[0]!), rows: lines.slice(1).map(parseCsvLine), text }
}

/** The candle objects of a JSON Lines text. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** A candle as the SQLite table stores it: `exchanges` as JSON text. */
export function asStoredRow(candle: object): Record<string, unknown> {
  const row: Record<string, unknown> = { ...candle }
  if (Array.isArray(row.exchanges)) row.exchanges = JSON.stringify(row.exchanges)
  return row
}
