/**
 * The tables of an export's SQLite file, as the export creates them (cli/export/sinks/sqlite/sqlite-sink.ts)
 * and as `load` reads them straight from the file (read-sqlite-btree.ts): one text for both, so a
 * change to the schema makes the direct reader step aside for such files instead of misreading them.
 * close_ts stays the service's fixed-width text, so text order is time order.
 */
export const EXCHANGE_TABLE = `exchange_candles (
  exchange TEXT NOT NULL, interval TEXT NOT NULL, base TEXT NOT NULL, quote TEXT NOT NULL, close_ts TEXT NOT NULL,
  open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL,
  base_volume REAL NOT NULL, quote_volume REAL NOT NULL,
  source_provider TEXT NOT NULL, source_channel TEXT NOT NULL, flag TEXT,
  PRIMARY KEY (exchange, interval, base, quote, close_ts)
) WITHOUT ROWID`

export const AGGREGATED_TABLE = `aggregated_candles (
  method TEXT NOT NULL, interval TEXT NOT NULL, base TEXT NOT NULL, quote TEXT NOT NULL, close_ts TEXT NOT NULL,
  open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL,
  base_volume REAL NOT NULL, quote_volume REAL NOT NULL,
  exchanges TEXT NOT NULL, flag TEXT,
  PRIMARY KEY (method, interval, base, quote, close_ts)
) WITHOUT ROWID`
