import { DuckDBInstance } from '@duckdb/node-api'

/**
 * Reads a Parquet dataset with DuckDB, a reader independent of the writer (hyparquet-writer):
 * every row with its Hive partition columns, close_ts as the service's text, ordered as the
 * SQLite table's primary key.
 */
export async function duckRows(dir: string, kind: 'exchange' | 'aggregated'): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:')
  const con = await db.connect()
  try {
    await con.run("SET TimeZone = 'UTC'")
    const source = kind === 'exchange' ? 'exchange' : 'method'
    const own = kind === 'exchange' ? 'source_provider, source_channel' : 'exchanges'
    const reader = await con.runAndReadAll(`
      SELECT ${source}, interval, base, quote, strftime(close_ts, '%Y-%m-%dT%H:%M:%SZ') AS close_ts,
        open, high, low, close, base_volume, quote_volume, ${own}, flag
      FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true)
      ORDER BY 1, 2, 3, 4, 5`)
    return reader.getRowObjectsJS() as Record<string, unknown>[]
  } finally {
    con.closeSync()
    db.closeSync()
  }
}

/** DuckDB's view of the dataset's columns: name -> type and nullability. */
export async function duckSchema(dir: string): Promise<Record<string, { type: string; nullable: boolean }>> {
  const db = await DuckDBInstance.create(':memory:')
  const con = await db.connect()
  try {
    const reader = await con.runAndReadAll(`SELECT name, type, repetition_type FROM parquet_schema('${dir}/**/*.parquet')`)
    const out: Record<string, { type: string; nullable: boolean }> = {}
    for (const r of reader.getRowObjectsJS() as Array<{ name: string; type: string | null; repetition_type: string | null }>) {
      out[r.name] = { type: String(r.type), nullable: r.repetition_type === 'OPTIONAL' }
    }
    const described = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`)
    for (const r of described.getRowObjectsJS() as Array<{ column_name: string; column_type: string }>) {
      out[`duckdb:${r.column_name}`] = { type: r.column_type, nullable: true }
    }
    return out
  } finally {
    con.closeSync()
    db.closeSync()
  }
}

/** Compression and rows of each row group of each part file. */
export async function duckRowGroups(dir: string): Promise<Array<{ file: string; rows: number; compression: string }>> {
  const db = await DuckDBInstance.create(':memory:')
  const con = await db.connect()
  try {
    const reader = await con.runAndReadAll(`SELECT DISTINCT file_name AS file, row_group_id, row_group_num_rows::INTEGER AS rows, compression FROM parquet_metadata('${dir}/**/*.parquet') ORDER BY file, row_group_id`)
    return (reader.getRowObjectsJS() as Array<{ file: string; rows: number; compression: string }>).map(({ file, rows, compression }) => ({ file, rows, compression }))
  } finally {
    con.closeSync()
    db.closeSync()
  }
}
