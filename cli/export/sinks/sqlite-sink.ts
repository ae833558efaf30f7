import type { Series } from '../series.js'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, type Kind } from './columns.js'
import { loadSqlite } from './load-sqlite.js'
import { OutputError, type AnyCandle, type Sink } from './sink.js'

// The resource's columns; close_ts stays the service's fixed-width text, so text order is time order.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS exchange_candles (
  exchange TEXT NOT NULL, interval TEXT NOT NULL, base TEXT NOT NULL, quote TEXT NOT NULL, close_ts TEXT NOT NULL,
  open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL,
  base_volume REAL NOT NULL, quote_volume REAL NOT NULL,
  source_provider TEXT NOT NULL, source_channel TEXT NOT NULL, flag TEXT,
  PRIMARY KEY (exchange, interval, base, quote, close_ts)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS aggregated_candles (
  method TEXT NOT NULL, interval TEXT NOT NULL, base TEXT NOT NULL, quote TEXT NOT NULL, close_ts TEXT NOT NULL,
  open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL,
  base_volume REAL NOT NULL, quote_volume REAL NOT NULL,
  exchanges TEXT NOT NULL, flag TEXT,
  PRIMARY KEY (method, interval, base, quote, close_ts)
) WITHOUT ROWID;`

const TABLES: Record<Kind, { table: string; source: string; columns: readonly string[] }> = {
  exchange: { table: 'exchange_candles', source: 'exchange', columns: EXCHANGE_COLUMNS },
  aggregated: { table: 'aggregated_candles', source: 'method', columns: AGGREGATED_COLUMNS },
}

/**
 * A SQLite file: WAL mode, one transaction per page through prepared statements, so a page is
 * stored whole or not at all. A rerun continues after max(close_ts) of each series.
 */
export async function openSqlite(path: string, kind: Kind): Promise<Sink> {
  const { DatabaseSync } = await loadSqlite()
  let db: InstanceType<typeof DatabaseSync>
  try {
    db = new DatabaseSync(path)
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;')
    db.exec(SCHEMA)
  } catch (error) {
    throw new OutputError(`cannot use ${path} as a SQLite database: ${(error as Error).message}; choose another --out`)
  }
  const { table, source, columns } = TABLES[kind]
  let insert, maxOf
  try {
    // A row already there (same series and close_ts) is left as it is: nothing is stored twice.
    insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`)
    maxOf = db.prepare(`SELECT max(close_ts) AS last FROM ${table} WHERE ${source} = ? AND interval = ? AND base = ? AND quote = ?`)
  } catch (error) {
    db.close()
    throw new OutputError(`${path} has a table ${table} with other columns than this export writes (${(error as Error).message}); choose another --out`)
  }
  const exchangeRow = (c: AnyCandle) => {
    const e = c as Extract<AnyCandle, { exchange: string }>
    insert.run(e.exchange, e.interval, e.base, e.quote, e.close_ts, e.open, e.high, e.low, e.close, e.base_volume, e.quote_volume, e.source_provider, e.source_channel, e.flag)
  }
  const aggregatedRow = (c: AnyCandle) => {
    const a = c as Extract<AnyCandle, { method: string }>
    insert.run(a.method, a.interval, a.base, a.quote, a.close_ts, a.open, a.high, a.low, a.close, a.base_volume, a.quote_volume, JSON.stringify(a.exchanges), a.flag)
  }
  const row = kind === 'exchange' ? exchangeRow : aggregatedRow
  return {
    lastStored(series: Series) {
      const found = maxOf.get(series.source!, series.interval, series.base, series.quote) as { last: string | null } | undefined
      return found?.last == null ? undefined : Date.parse(found.last)
    },
    write(_series, candles) {
      db.exec('BEGIN')
      try {
        for (const c of candles) row(c)
        db.exec('COMMIT')
      } catch (error) {
        db.exec('ROLLBACK')
        throw new OutputError(`writing to ${path} failed: ${(error as Error).message}`)
      }
    },
    close: async () => db.close(),
  }
}
