import type { ClientBase } from 'pg'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, PRICE_COLUMNS, type Kind } from '../columns.js'
import { OutputError } from '../sink.js'

/** A quoted identifier (`interval` is a keyword; a schema name may hold anything). */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

const TEXT = 'text'
const TS = 'timestamp with time zone'
const FLOAT = 'double precision'
const TEXT_ARRAY = 'text[]'

interface Column {
  name: string
  type: string
  notNull: boolean
}

const priced = (names: readonly string[], last: Record<string, string>): Column[] =>
  names.map((name) => ({
    name,
    type: name === 'close_ts' ? TS : (PRICE_COLUMNS as readonly string[]).includes(name) ? FLOAT : (last[name] ?? TEXT),
    notNull: name !== 'flag',
  }))

/** The tables of the SQLite sink, with PostgreSQL's types: same columns, same primary keys. */
export const PG_TABLES: Record<Kind, { table: string; source: string; columns: readonly Column[] }> = {
  exchange: { table: 'exchange_candles', source: 'exchange', columns: priced(EXCHANGE_COLUMNS, {}) },
  aggregated: { table: 'aggregated_candles', source: 'method', columns: priced(AGGREGATED_COLUMNS, { exchanges: TEXT_ARRAY }) },
}

const primaryKey = (kind: Kind) => [PG_TABLES[kind].source, 'interval', 'base', 'quote', 'close_ts']

function createTable(schema: string, kind: Kind): string {
  const { table, columns } = PG_TABLES[kind]
  const defs = columns.map((c) => `${ident(c.name)} ${c.type}${c.notNull ? ' NOT NULL' : ''}`)
  return `CREATE TABLE ${ident(schema)}.${ident(table)} (${defs.join(', ')}, PRIMARY KEY (${primaryKey(kind).map(ident).join(', ')}))`
}

// One key for every exporter of this package: creating the same schema or table from two
// sessions at once can fail even with IF NOT EXISTS (a race on the catalog), so creation is serialized.
const DDL_LOCK = 0x6d63_7063 // 'mcpc'

/**
 * Creates the schema and the kind's table when missing; an existing table must have exactly these
 * columns, types, nullability and primary key, or the export is refused with what differs (the
 * table is never altered).
 */
export async function ensureTable(client: ClientBase, schema: string, kind: Kind, shown: string): Promise<void> {
  const { table, columns } = PG_TABLES[kind]
  const where = `the table ${schema}.${table} in ${shown}`
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [DDL_LOCK])
    const hasSchema = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])
    if (hasSchema.rowCount === 0) await client.query(`CREATE SCHEMA ${ident(schema)}`)
    const found = await client.query<{ name: string; type: string; not_null: boolean; pk: boolean }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
              coalesce(a.attnum = ANY (i.indkey), false) AS pk
         FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
        WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum`,
      [schema, table],
    )
    if (found.rowCount === 0) {
      const kindOf = await client.query('SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2', [schema, table])
      if (kindOf.rowCount !== 0) throw new OutputError(`${where} exists but is not a table of this export (no columns); choose another --pg-schema`)
      await client.query(createTable(schema, kind))
    } else {
      const problems: string[] = []
      const have = new Map(found.rows.map((r) => [r.name, r]))
      for (const c of columns) {
        const h = have.get(c.name)
        if (h === undefined) problems.push(`no column ${c.name}`)
        else {
          if (h.type !== c.type) problems.push(`${c.name} is ${h.type}, not ${c.type}`)
          if (h.not_null !== c.notNull) problems.push(`${c.name} is ${h.not_null ? 'NOT NULL' : 'nullable'}`)
        }
      }
      for (const name of have.keys()) if (!columns.some((c) => c.name === name)) problems.push(`an extra column ${name}`)
      const pk = found.rows.filter((r) => r.pk).map((r) => r.name).sort()
      if (pk.join() !== [...primaryKey(kind)].sort().join()) problems.push(`its primary key is (${pk.join(', ') || 'none'}), not (${primaryKey(kind).join(', ')})`)
      if (problems.length > 0) {
        throw new OutputError(`${where} has another shape than this export writes: ${problems.join('; ')}. It is left as it is; choose another --pg-schema (or another database)`)
      }
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
