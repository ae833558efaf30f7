import pg from 'pg'
import { columnsOf, type Kind } from '../../../cli/export/sinks/columns.js'
import type { RunningPostgres } from '../../support/postgres-server.js'

const TABLE: Record<Kind, string> = { exchange: 'exchange_candles', aggregated: 'aggregated_candles' }

/** Runs `body` with a connected client, closing it after. */
export async function withClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await body(client)
  } finally {
    await client.end()
  }
}

let databases = 0
/** A new, empty database on the server; its URL (with the password). */
export async function freshDatabase(server: RunningPostgres): Promise<string> {
  const name = `export_${process.pid}_${++databases}`
  await withClient(server.url(), (c) => c.query(`CREATE DATABASE ${name}`))
  return server.url(name)
}

/**
 * Every row of a kind's table in primary key order, as the SQLite sink's rows read back
 * (test/export/sinks/read-output.ts sqliteRows): close_ts as the service's text, exchanges as JSON text.
 */
export async function pgRows(url: string, kind: Kind, schema = 'public'): Promise<Record<string, unknown>[]> {
  const columns = columnsOf(kind).map((c) =>
    c === 'close_ts' ? `to_char(close_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS close_ts`
    : c === 'exchanges' ? `array_to_json(exchanges)::text AS exchanges`
    : `"${c}"`,
  )
  return withClient(url, async (c) => (await c.query(`SELECT ${columns.join(', ')} FROM "${schema}".${TABLE[kind]} ORDER BY 1, 2, 3, 4, close_ts`)).rows)
}
