import type { Writable } from 'node:stream'
import type { ExportFormat } from '../flags/export-format.js'
import type { Series } from '../plan/series.js'
import type { Kind } from './columns.js'
import { lineFormat, openLineFile, openLineStream } from './lines/line-file-sink.js'
import { openPostgres } from './postgres/postgres-sink.js'
import { postgresTarget } from './postgres/postgres-target.js'
import type { Sink } from './sink.js'
import { openSqlite } from './sqlite/sqlite-sink.js'

/** What some sinks need beyond the output itself. */
export interface SinkOptions {
  /** `--pg-schema`. */
  pgSchema?: string | undefined
  /** `--part-rows`: rows per Parquet part file (default 100,000). */
  partRows?: number | undefined
  /** Where PG* variables are read (the run's environment). */
  env?: NodeJS.ProcessEnv
  /** Where a sink says what it did to files it found (the Parquet sink's torn parts). */
  note?: ((text: string) => void) | undefined
}

/** Opens the output of a run: `-` is the given stream (stdout). */
export async function openSink(out: string, format: ExportFormat, kind: Kind, planned: readonly Series[], stdout: Writable, options: SinkOptions = {}): Promise<Sink> {
  if (format === 'sqlite') return openSqlite(out, kind)
  if (format === 'parquet') return (await import('./parquet/parquet-sink.js')).openParquet(out, kind, planned, options.note, options.partRows)
  if (format === 'postgres') return openPostgres(postgresTarget(out, options.pgSchema, options.env ?? process.env), kind, planned)
  return out === '-' ? openLineStream(stdout, lineFormat(format, kind)) : openLineFile(out, lineFormat(format, kind), planned)
}
