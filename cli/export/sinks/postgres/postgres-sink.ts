import { finished } from 'node:stream/promises'
import type { Client } from 'pg'
import type { Series } from '../../plan/series.js'
import { columnsOf, type Kind } from '../columns.js'
import { loadPostgres } from './load-postgres.js'
import { PageBatches, type BatchPage } from './postgres-batches.js'
import { describePostgresError } from './postgres-errors.js'
import { PG_TABLES, ensureTable, ident } from './postgres-schema.js'
import type { PostgresTarget } from './postgres-target.js'
import { OutputError, plannedSeriesKey, type Sink } from '../sink.js'
import { parseTimestamp } from '../../../../src/contract/close-time.js'

const UNIQUE_VIOLATION = '23505'
// Pages the export may hand over before the first is committed; the pages waiting while a batch is
// stored form the next batch. One COPY of 8 pages costs the server about 2.6 ms of CPU a page
// against 3.9 for 8 COPYs of one page (bench/export/pg-page-cost.ts, 2026-11-25): the cost per statement
// is about 1.2 ms. With 16 in flight batches settle near 8 pages when the server is the limit.
const PAGES_IN_FLIGHT = 16
const MAX_BATCH_PAGES = 16

/**
 * A PostgreSQL database shared by any number of exporters. Pages are stored in batches, each one
 * transaction loaded with one COPY (text) straight into the table: the pages handed over while a
 * batch is being stored go together in the next (see PageBatches), and each write resolves once its
 * batch is committed. When another exporter already stored some of a batch's rows (a unique
 * violation), the batch is loaded again through a temporary table and `INSERT ... ON CONFLICT DO
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
    const stream = client.query(copyFrom(`COPY ${into} (${columns}) FROM STDIN (FORMAT text)`))
    stream.end(rows)
    await finished(stream)
  }
  // The conflict path: the batch into a session-local table, then only its new rows into the table.
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

  const store = async (rows: Buffer, pages: readonly BatchPage[]) => {
    if (lost) throw fail('writing', lost)
    try {
      try {
        // One COPY statement outside BEGIN ... COMMIT is a transaction of its own: the batch is stored
        // whole or not at all, in one round trip instead of three.
        await copyInto(qualified, rows)
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
        await merge(rows)
      }
    } catch (error) {
      // A failed batch is rolled back whole; a dead connection rolls it back by itself.
      if (!lost) await client.query('ROLLBACK').catch(() => {})
      throw fail('writing', lost ?? error)
    }
    for (const { series, lastCloseTs } of pages) {
      const key = plannedSeriesKey(series)
      const newest = parseTimestamp(lastCloseTs)
      if (!(newest <= (last.get(key) ?? -Infinity))) last.set(key, newest)
    }
  }
  const batches = new PageBatches(kind, store, MAX_BATCH_PAGES)
  return {
    lastStored: (series) => last.get(plannedSeriesKey(series)),
    pagesInFlight: PAGES_IN_FLIGHT,
    // Resolves once the page's batch is committed: progress and the totals a failure reports count stored pages only.
    write: (series, candles) => batches.add(series, candles),
    close: async () => {
      await client.end().catch(() => {})
    },
  }
}
