import type { AnyCandle } from '../../../../src/schemas/index.js'
import { RowProblem, toExchanges } from '../rows/candle-row.js'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, type Kind } from '../rows/columns.js'
import { LoadError } from '../load-error.js'
import { nodeBuiltin } from '../node-builtins.js'

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
 * The speed is in how few values cross from SQLite (each costs about as much as building the
 * candle): a series' own fields are read once per series, not per row; the source, the
 * contributors and the flag cross only when they change (a NULL otherwise), and rows that repeat
 * them share one string or array; rows come as arrays (`setReturnArrays`), a chunk at a time
 * through `all()` (faster than `iterate()` row by row). The file is mapped in memory, read only.
 */
export function readSqlite(path: string, label: string): AnyCandle[] {
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
    const out: AnyCandle[] = []
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

function readTable(db: Database, t: (typeof TABLES)[number], label: string, out: AnyCandle[]): void {
  const exchangeKind = t.kind === 'exchange'
  // The columns that repeat row after row (the source, the contributors; a flag is rare) cross as
  // one NULL while they equal the values bound (the previous row's), else as one JSON array.
  const same = exchangeKind ? 'source_provider = ?6 AND source_channel = ?7 AND flag IS NULL' : 'exchanges = ?6 AND flag IS NULL'
  const changed = exchangeKind ? 'json_array(source_provider, source_channel, flag)' : 'json_array(exchanges, flag)'
  // The next series after one, by the primary key's order: a few index seeks per series instead of
  // a DISTINCT scan of every row.
  const next = db.prepare(`SELECT ${t.source} AS s, interval, base, quote FROM ${t.table} WHERE (${t.source}, interval, base, quote) > (?, ?, ?, ?) ORDER BY ${t.source}, interval, base, quote LIMIT 1`)
  const rows = db.prepare(
    `SELECT close_ts, open, high, low, close, base_volume, quote_volume, CASE WHEN ${same} THEN NULL ELSE ${changed} END FROM ${t.table}
     WHERE ${t.source} = ?1 AND interval = ?2 AND base = ?3 AND quote = ?4 AND close_ts > ?5 ORDER BY close_ts LIMIT ${CHUNK}`,
  )
  rows.setReturnArrays(true)
  let series = next.get('', '', '', '') as { s: string; interval: string; base: string; quote: string } | undefined
  // The last row's values: bound to the next chunk's query, and shared by the rows that repeat them.
  let provider = ''
  let channel = ''
  let exchangesText = ''
  let exchanges: string[] = []
  while (series !== undefined) {
    const { s, interval, base, quote } = series
    const where = (closeTs: unknown) => `${label} table ${t.table}, ${s} ${base}/${quote} ${interval} ${String(closeTs)}`
    let after = ''
    for (;;) {
      // A NULL row repeats what was bound for this chunk, whatever rows before it changed.
      const [boundProvider, boundChannel, boundText, boundExchanges] = [provider, channel, exchangesText, exchanges]
      const chunk = (exchangeKind ? rows.all(s, interval, base, quote, after, provider, channel) : rows.all(s, interval, base, quote, after, exchangesText)) as unknown as unknown[][]
      for (const r of chunk) {
        const [closeTs, open, high, low, close, baseVolume, quoteVolume, change] = r as [string, number, number, number, number, number, number, string | null]
        if (typeof open !== 'number' || typeof high !== 'number' || typeof low !== 'number' || typeof close !== 'number' || typeof baseVolume !== 'number' || typeof quoteVolume !== 'number' || typeof closeTs !== 'string') {
          throw new LoadError(`${where(closeTs)}: ${badValue(r)}`, label)
        }
        let flag: string | null = null
        if (change === null) {
          provider = boundProvider
          channel = boundChannel
          exchangesText = boundText
          exchanges = boundExchanges
        } else {
          const values = JSON.parse(change) as unknown[]
          const f = values[values.length - 1]
          if (f !== null && typeof f !== 'string') throw new LoadError(`${where(closeTs)}: flag ${JSON.stringify(f)} is not text or NULL`, label)
          flag = f
          if (exchangeKind) {
            const [p, c] = values
            if (typeof p !== 'string' || p === '' || typeof c !== 'string' || c === '') throw new LoadError(`${where(closeTs)}: source_provider and source_channel must be non-empty text`, label)
            provider = p === boundProvider ? boundProvider : p === provider ? provider : p
            channel = c === boundChannel ? boundChannel : c === channel ? channel : c
          } else if (values[0] === boundText) {
            exchangesText = boundText
            exchanges = boundExchanges
          } else if (values[0] !== exchangesText) {
            try {
              exchanges = toExchanges(values[0])
            } catch (error) {
              throw new LoadError(`${where(closeTs)}: ${(error as RowProblem).message}`, label)
            }
            exchangesText = values[0] as string
          }
        }
        if (exchangeKind) {
          out.push({ exchange: s, interval, base, quote, close_ts: closeTs, open, high, low, close, base_volume: baseVolume, quote_volume: quoteVolume, source_provider: provider, source_channel: channel, flag })
        } else {
          out.push({ method: s, interval, base, quote, close_ts: closeTs, open, high, low, close, base_volume: baseVolume, quote_volume: quoteVolume, exchanges, flag })
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
