import { parseTimestamp } from '../../../../src/contract/index.js'
import { INTERVAL_MS, isKnownInterval } from '../../../../src/schemas/index.js'
import type { CandleSource, ExchangeColumns } from '../../overlay/exchange-columns.js'
import { EXCHANGE_COLUMNS } from '../rows/columns.js'
import { nodeBuiltin } from '../node-builtins.js'
import { RunBuilder } from '../rows/run-builder.js'

type Database = InstanceType<typeof import('node:sqlite').DatabaseSync>

/** Rows a query returns at once (their arrays die young; only the columns stay). */
const CHUNK = 16384

/**
 * The fast path of `load` for a SQLite file the export wrote: its exchange series read straight
 * into columns ({@link ExchangeColumns}), no candle object made. Undefined for anything it does not
 * take as it is (a file it cannot open, aggregated rows, a value of the wrong type, a close_ts not
 * in the service's form): {@link readSqlite} then reads the file and names the problem. The query
 * is readSqlite's: the source and flag cross from SQLite only when they change.
 */
export function readSqliteColumns(path: string): ExchangeColumns[] | undefined {
  let db: Database
  try {
    db = new (nodeBuiltin('node:sqlite').DatabaseSync)(path, { readOnly: true })
  } catch {
    return undefined
  }
  try {
    db.exec('PRAGMA mmap_size = 1073741824')
    const present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name))
    if (!present.has('exchange_candles')) return undefined
    if (present.has('aggregated_candles') && db.prepare('SELECT 1 FROM aggregated_candles LIMIT 1').get() !== undefined) return undefined
    const columns = (db.prepare('PRAGMA table_info(exchange_candles)').all() as Array<{ name: string }>).map((c) => c.name)
    if (EXCHANGE_COLUMNS.some((c) => !columns.includes(c))) return undefined
    return readRuns(db)
  } catch {
    return undefined
  } finally {
    db.close()
  }
}

function readRuns(db: Database): ExchangeColumns[] | undefined {
  const next = db.prepare(
    'SELECT exchange AS s, interval, base, quote FROM exchange_candles WHERE (exchange, interval, base, quote) > (?, ?, ?, ?) ORDER BY exchange, interval, base, quote LIMIT 1',
  )
  // A series' ends by the primary key (two seeks): its size on the grid, to size the columns.
  const ends = db.prepare('SELECT min(close_ts), max(close_ts) FROM exchange_candles WHERE exchange = ? AND interval = ? AND base = ? AND quote = ?')
  ends.setReturnArrays(true)
  const rows = db.prepare(
    `SELECT close_ts, open, high, low, close, base_volume, quote_volume,
       CASE WHEN source_provider = ?6 AND source_channel = ?7 AND flag IS NULL THEN NULL ELSE json_array(source_provider, source_channel, flag) END
     FROM exchange_candles WHERE exchange = ?1 AND interval = ?2 AND base = ?3 AND quote = ?4 AND close_ts > ?5 ORDER BY close_ts LIMIT ${CHUNK}`,
  )
  rows.setReturnArrays(true)
  const sources: CandleSource[] = []
  const sourceIndex = new Map<string, number>()
  const intern = (key: string, provider: string, channel: string, flag: string | null) => {
    let k = sourceIndex.get(key)
    if (k === undefined) sourceIndex.set(key, (k = sources.push({ provider, channel, flag }) - 1))
    return k
  }
  const runs: ExchangeColumns[] = []
  // The last row's source: bound to the next chunk's query (a NULL row repeats it, flag NULL).
  let provider = ''
  let channel = ''
  let series = next.get('', '', '', '') as { s: unknown; interval: unknown; base: unknown; quote: unknown } | undefined
  while (series !== undefined) {
    const { s, interval, base, quote } = series
    if (typeof s !== 'string' || typeof interval !== 'string' || typeof base !== 'string' || typeof quote !== 'string') return undefined
    const [first, last] = ends.get(s, interval, base, quote) as unknown as [unknown, unknown]
    const span = typeof first === 'string' && typeof last === 'string' && isKnownInterval(interval) ? (parseTimestamp(last) - parseTimestamp(first)) / INTERVAL_MS[interval] + 1 : NaN
    const run = new RunBuilder(span >= 1 && span <= 1e8 ? Math.floor(span) : 1024)
    let after = ''
    for (;;) {
      // What this chunk's NULL rows stand for, interned on the first one.
      const [boundProvider, boundChannel] = [provider, channel]
      let bound = -1
      const chunk = rows.all(s, interval, base, quote, after, provider, channel) as unknown as unknown[][]
      for (const r of chunk) {
        const closeTs = r[0]
        // Any ISO 8601 form of a UTC instant (D13); written back canonical.
        const t = typeof closeTs === 'string' ? parseTimestamp(closeTs) : Number.NaN
        // By index: destructuring a row goes through the iterator protocol.
        const o = r[1]
        const h = r[2]
        const l = r[3]
        const c = r[4]
        const bv = r[5]
        const qv = r[6]
        const change = r[7]
        if (Number.isNaN(t) || typeof o !== 'number' || typeof h !== 'number' || typeof l !== 'number' || typeof c !== 'number' || typeof bv !== 'number' || typeof qv !== 'number') return undefined
        let k: number
        if (change === null) {
          if (bound < 0) bound = intern(JSON.stringify([boundProvider, boundChannel, null]), boundProvider, boundChannel, null)
          k = bound
          provider = boundProvider
          channel = boundChannel
        } else {
          const [p, ch, f] = JSON.parse(change as string) as unknown[]
          if (typeof p !== 'string' || p === '' || typeof ch !== 'string' || ch === '' || (f !== null && typeof f !== 'string')) return undefined
          k = intern(change as string, p, ch, f)
          provider = p
          channel = ch
        }
        run.push(t, o, h, l, c, bv, qv, k)
      }
      if (chunk.length < CHUNK) break
      after = chunk[chunk.length - 1]![0] as string
    }
    runs.push(run.finish(s, interval, base, quote, sources))
    series = next.get(s, interval, base, quote) as typeof series
  }
  return runs
}
