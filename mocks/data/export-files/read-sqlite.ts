import type { ArrangedCandle } from '../../core/data-control.js'
import { RowProblem, toExchanges } from './candle-row.js'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, type Kind } from './columns.js'
import { LoadError } from './load-error.js'
import { nodeBuiltin } from './node-builtins.js'

type Database = InstanceType<typeof import('node:sqlite').DatabaseSync>

const TABLES: ReadonlyArray<{ kind: Kind; table: string; source: string; columns: readonly string[] }> = [
  { kind: 'exchange', table: 'exchange_candles', source: 'exchange', columns: EXCHANGE_COLUMNS },
  { kind: 'aggregated', table: 'aggregated_candles', source: 'method', columns: AGGREGATED_COLUMNS },
]

/** Rows a query returns at once: their arrays are dropped chunk by chunk, only the candles stay. */
const CHUNK = 8192

/**
 * A SQLite file `market-candles export` wrote: its `exchange_candles` and `aggregated_candles`
 * tables (either may be missing or empty), read series by series in close_ts order.
 *
 * The speed is in how rows cross from SQLite (about 0.3 µs per value in node:sqlite): a series'
 * own fields are read once per series, not per row; rows come as arrays (`setReturnArrays`), a
 * chunk at a time through `all()` (faster than `iterate()` row by row); repeated texts (the source,
 * a flag, a list of contributors) are shared. The file is mapped in memory, read only.
 */
export function readSqlite(path: string, label: string): ArrangedCandle[] {
  const { DatabaseSync } = nodeBuiltin('node:sqlite')
  let db: Database
  try {
    db = new DatabaseSync(path, { readOnly: true })
    db.exec('PRAGMA mmap_size = 1073741824')
  } catch (error) {
    throw new LoadError(`${label}: cannot open it as a SQLite database (${(error as Error).message})`, label)
  }
  try {
    let present: Set<string>
    try {
      present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name))
    } catch (error) {
      throw new LoadError(`${label}: not a SQLite database (${(error as Error).message})`, label)
    }
    const tables = TABLES.filter((t) => present.has(t.table))
    if (tables.length === 0) throw new LoadError(`${label}: holds neither an exchange_candles nor an aggregated_candles table: not a file market-candles export wrote`, label)
    const out: ArrangedCandle[] = []
    for (const t of tables) {
      const columns = (db.prepare(`PRAGMA table_info(${t.table})`).all() as Array<{ name: string }>).map((c) => c.name)
      const missing = t.columns.filter((c) => !columns.includes(c))
      if (missing.length > 0) throw new LoadError(`${label}: table ${t.table} lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: not a table market-candles export wrote`, label)
      readTable(db, t, label, out)
    }
    return out
  } finally {
    db.close()
  }
}

function readTable(db: Database, t: (typeof TABLES)[number], label: string, out: ArrangedCandle[]): void {
  const own = t.kind === 'exchange' ? 'source_provider, source_channel' : 'exchanges'
  // The next series after one, by the primary key's order: a few index seeks per series instead of
  // a DISTINCT scan of every row.
  const next = db.prepare(`SELECT ${t.source} AS s, interval, base, quote FROM ${t.table} WHERE (${t.source}, interval, base, quote) > (?, ?, ?, ?) ORDER BY ${t.source}, interval, base, quote LIMIT 1`)
  const rows = db.prepare(
    `SELECT close_ts, open, high, low, close, base_volume, quote_volume, ${own}, flag FROM ${t.table}
     WHERE ${t.source} = ? AND interval = ? AND base = ? AND quote = ? AND close_ts > ? ORDER BY close_ts LIMIT ${CHUNK}`,
  )
  rows.setReturnArrays(true)
  let series = next.get('', '', '', '') as { s: string; interval: string; base: string; quote: string } | undefined
  // Whatever the previous row held, shared while it repeats.
  let provider = ''
  let channel = ''
  let flag = ''
  let exchangesText = ''
  let exchanges: string[] = []
  while (series !== undefined) {
    const { s, interval, base, quote } = series
    let after = ''
    for (;;) {
      const chunk = rows.all(s, interval, base, quote, after) as unknown as unknown[][]
      for (const r of chunk) {
        const [closeTs, open, high, low, close, baseVolume, quoteVolume] = r as [string, number, number, number, number, number, number]
        if (typeof open !== 'number' || typeof high !== 'number' || typeof low !== 'number' || typeof close !== 'number' || typeof baseVolume !== 'number' || typeof quoteVolume !== 'number' || typeof closeTs !== 'string') {
          throw new LoadError(`${label} table ${t.table}, ${s} ${base}/${quote} ${interval} ${String(closeTs)}: ${badValue(r)}`, label)
        }
        const f = r[t.kind === 'exchange' ? 9 : 8]
        const rowFlag = f === null ? null : f === flag ? flag : typeof f === 'string' ? (flag = f) : undefined
        if (rowFlag === undefined) throw new LoadError(`${label} table ${t.table}, ${s} ${base}/${quote} ${interval} ${closeTs}: flag ${JSON.stringify(f)} is not text or NULL`, label)
        if (t.kind === 'exchange') {
          const p = r[7]
          const c = r[8]
          if (p !== provider) provider = typeof p === 'string' ? p : ''
          if (c !== channel) channel = typeof c === 'string' ? c : ''
          if (provider === '' || channel === '') throw new LoadError(`${label} table ${t.table}, ${s} ${base}/${quote} ${interval} ${closeTs}: source_provider and source_channel must be non-empty text`, label)
          out.push({ exchange: s, interval, base, quote, close_ts: closeTs, open, high, low, close, base_volume: baseVolume, quote_volume: quoteVolume, source_provider: provider, source_channel: channel, flag: rowFlag })
        } else {
          if (r[7] !== exchangesText) {
            try {
              exchanges = toExchanges(r[7])
            } catch (error) {
              throw new LoadError(`${label} table ${t.table}, ${s} ${base}/${quote} ${interval} ${closeTs}: ${(error as RowProblem).message}`, label)
            }
            exchangesText = r[7] as string
          }
          out.push({ method: s, interval, base, quote, close_ts: closeTs, open, high, low, close, base_volume: baseVolume, quote_volume: quoteVolume, exchanges, flag: rowFlag })
        }
      }
      if (chunk.length < CHUNK) break
      after = chunk[chunk.length - 1]![0] as string
    }
    series = next.get(s, interval, base, quote) as typeof series
  }
}

function badValue(r: readonly unknown[]): string {
  const names = ['close_ts', 'open', 'high', 'low', 'close', 'base_volume', 'quote_volume']
  const i = r.findIndex((v, k) => k < names.length && typeof v !== (k === 0 ? 'string' : 'number'))
  return `${names[i]} ${JSON.stringify(r[i])} is not ${i === 0 ? 'text' : 'a number'}`
}
