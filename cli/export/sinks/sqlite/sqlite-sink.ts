import type { Series } from '../../plan/series.js'
import type { Kind } from '../columns.js'
import { loadSqlite } from './load-sqlite.js'
import { OutputError, type Sink } from '../sink.js'
import { SqliteRows } from './sqlite-rows.js'
import { parseTimestamp } from '../../../../src/contract/close-time.js'

// close_ts stays the service's fixed-width text, so text order is time order (resume's max(close_ts)).
const EXCHANGE_TABLE = `exchange_candles (
  exchange TEXT NOT NULL, interval TEXT NOT NULL, base TEXT NOT NULL, quote TEXT NOT NULL, close_ts TEXT NOT NULL,
  open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL,
  base_volume REAL NOT NULL, quote_volume REAL NOT NULL,
  source_provider TEXT NOT NULL, source_channel TEXT NOT NULL, flag TEXT,
  PRIMARY KEY (exchange, interval, base, quote, close_ts)
) WITHOUT ROWID`

const AGGREGATED_TABLE = `aggregated_candles (
  method TEXT NOT NULL, interval TEXT NOT NULL, base TEXT NOT NULL, quote TEXT NOT NULL, close_ts TEXT NOT NULL,
  open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL,
  base_volume REAL NOT NULL, quote_volume REAL NOT NULL,
  exchanges TEXT NOT NULL, flag TEXT,
  PRIMARY KEY (method, interval, base, quote, close_ts)
) WITHOUT ROWID`

const SCHEMA = `CREATE TABLE IF NOT EXISTS ${EXCHANGE_TABLE};
CREATE TABLE IF NOT EXISTS ${AGGREGATED_TABLE};`

const TABLES: Record<Kind, { table: string; source: string }> = {
  exchange: { table: 'exchange_candles', source: 'exchange' },
  aggregated: { table: 'aggregated_candles', source: 'method' },
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
    // 16 KB pages (they apply to a new file only): fewer page splits and WAL frames per candle page.
    db.exec('PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;')
    db.exec(SCHEMA)
  } catch (error) {
    throw new OutputError(`cannot use ${path} as a SQLite database: ${(error as Error).message}; choose another --out`)
  }
  const { table, source } = TABLES[kind]
  let rows: SqliteRows, maxOf
  try {
    // A row already there (same series and close_ts) is left as it is: nothing is stored twice.
    rows = new SqliteRows(db, table, kind)
    maxOf = db.prepare(`SELECT max(close_ts) AS last FROM ${table} WHERE ${source} = ? AND interval = ? AND base = ? AND quote = ?`)
  } catch (error) {
    db.close()
    throw new OutputError(`${path} has a table ${table} with other columns than this export writes (${(error as Error).message}); choose another --out`)
  }
  return {
    lastStored(series: Series) {
      const found = maxOf.get(series.source!, series.interval, series.base, series.quote) as { last: string | null } | undefined
      return found?.last == null ? undefined : parseTimestamp(found.last)
    },
    write(_series, candles) {
      db.exec('BEGIN')
      try {
        rows.insert(candles)
        db.exec('COMMIT')
      } catch (error) {
        db.exec('ROLLBACK')
        throw new OutputError(`writing to ${path} failed: ${(error as Error).message}`)
      }
    },
    close: async () => db.close(),
  }
}
