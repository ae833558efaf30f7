import { finished } from 'node:stream/promises'
import type { Client } from 'pg'
import type { Series } from '../series.js'
import { columnsOf, type Kind } from './columns.js'
import { loadPostgres } from './load-postgres.js'
import { copyBinary } from './postgres-copy-binary.js'
import { describePostgresError } from './postgres-errors.js'
import { PG_TABLES, ensureTable, ident } from './postgres-schema.js'
import type { PostgresTarget } from './postgres-target.js'
import { OutputError, plannedSeriesKey, type AnyCandle, type Sink } from './sink.js'

const UNIQUE_VIOLATION = '23505'

/**
 * A PostgreSQL database shared by any number of exporters. Each page is one transaction loaded with
 * COPY (binary) straight into the table; when another exporter already stored some of its rows (a unique
 * violation), the page is loaded again through a temporary table and `INSERT ... ON CONFLICT DO
 * NOTHING`, so concurrent exporters never duplicate a row and never fail on a conflict. A rerun
 * continues after max(close_ts) of each series, read once at the start per planned series.
 */
export async function openPostgres(target: PostgresTarget, kind: Kind, planned: readonly Series[]): Promise<Sink> {
  const { pg, copyFrom } = await loadPostgres()
  const { shown, schema } = target
  const client: Client = new pg.Client({ ...target.config, connectionTimeoutMillis: 15_000, keepAlive: true })
  // A connection lost between queries arrives as an 'error' event: kept, reported by the next write.
  let lost: Error | undefined
  client.on('error', (error) => (lost = error))
  const fail = (doing: string, error: unknown) =>
    error instanceof OutputError ? error : new OutputError(describePostgresError(error, { shown, user: target.config.user, doing }))
  try {
    await client.connect()
  } catch (error) {
    await client.end().catch(() => {})
    throw fail('connecting', error)
  }
  const { table, source } = PG_TABLES[kind]
  const qualified = `${ident(schema)}.${ident(table)}`
  const columns = columnsOf(kind).map(ident).join(', ')
  const last = new Map<string, number>()
  try {
    await ensureTable(client, schema, kind, shown)
    // Each series' max is one backward step of the primary key index, however large the table.
    for (const s of planned) {
      const r = await client.query<{ last: Date | null }>(
        `SELECT max(close_ts) AS last FROM ${qualified} WHERE ${ident(source)} = $1 AND "interval" = $2 AND base = $3 AND quote = $4`,
        [s.source, s.interval, s.base, s.quote],
      )
      const at = r.rows[0]?.last
      if (at != null) last.set(plannedSeriesKey(s), at.getTime())
    }
  } catch (error) {
    await client.end().catch(() => {})
    throw fail('preparing the table', error)
  }

  let staged = false
  const copyInto = async (into: string, rows: Buffer) => {
    const stream = client.query(copyFrom(`COPY ${into} (${columns}) FROM STDIN (FORMAT binary)`))
    stream.end(rows)
    await finished(stream)
  }
  // The conflict path: the page into a session-local table, then only its new rows into the table.
  const merge = async (rows: Buffer) => {
    if (!staged) {
      await client.query(`CREATE TEMPORARY TABLE IF NOT EXISTS market_candles_page (LIKE ${qualified}) ON COMMIT DELETE ROWS`)
      staged = true
    }
    await client.query('BEGIN')
    await copyInto('pg_temp.market_candles_page', rows)
    await client.query(`INSERT INTO ${qualified} (${columns}) SELECT ${columns} FROM pg_temp.market_candles_page ON CONFLICT DO NOTHING`)
    await client.query('COMMIT')
  }

  const store = async (series: Series, candles: readonly AnyCandle[], rows: Buffer) => {
    if (lost) throw fail('writing', lost)
    try {
      try {
        // One COPY statement outside BEGIN ... COMMIT is a transaction of its own: the page is stored
        // whole or not at all, in one round trip instead of three.
        await copyInto(qualified, rows)
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
        await merge(rows)
      }
    } catch (error) {
      // A failed page is rolled back whole; a dead connection rolls it back by itself.
      if (!lost) await client.query('ROLLBACK').catch(() => {})
      throw fail('writing', lost ?? error)
    }
    const key = plannedSeriesKey(series)
    const newest = Date.parse(candles[candles.length - 1]!.close_ts)
    if (!(newest <= (last.get(key) ?? -Infinity))) last.set(key, newest)
  }
  return {
    lastStored: (series) => last.get(plannedSeriesKey(series)),
    // Resolves once the page is committed: progress and the totals a failure reports count stored pages only.
    write: (series, candles) => store(series, candles, copyBinary(kind, candles)),
    close: async () => {
      await client.end().catch(() => {})
    },
  }
}
