import type { Writable } from 'node:stream'
import type { ExportFormat } from '../args.js'
import type { Series } from '../series.js'
import type { Kind } from './columns.js'
import { lineFormat, openLineFile, openLineStream } from './line-file-sink.js'
import type { Sink } from './sink.js'
import { openSqlite } from './sqlite-sink.js'

/** Opens the output of a run: `-` is the given stream (stdout). */
export async function openSink(out: string, format: ExportFormat, kind: Kind, planned: readonly Series[], stdout: Writable, note?: (text: string) => void): Promise<Sink> {
  if (format === 'sqlite') return openSqlite(out, kind)
  if (format === 'parquet') return (await import('./parquet-sink.js')).openParquet(out, kind, planned, note)
  return out === '-' ? openLineStream(stdout, lineFormat(format, kind)) : openLineFile(out, lineFormat(format, kind), planned)
}
