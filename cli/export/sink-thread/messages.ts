import type { ExportFormat } from '../flags/export-format.js'
import type { Series } from '../plan/series.js'
import type { Kind } from '../sinks/columns.js'
import type { PageColumns } from './page-columns.js'

/** What the sink's thread opens. */
export interface SinkThreadData {
  out: string
  format: ExportFormat
  kind: Kind
  planned: Series[]
  pgSchema: string | undefined
  partRows: number | undefined
  /** The run's environment (PG* variables). */
  env: Record<string, string | undefined>
}

/** A sink's failure as it crosses threads: an OutputError stays one (its message is the whole story). */
export interface ThreadError {
  name: string
  message: string
  output: boolean
  code?: string
}

export type ToSinkThread = { type: 'write'; id: number; series: Series; page: PageColumns } | { type: 'close' }

export type FromSinkThread =
  | { type: 'opened'; last: Array<[key: string, closeMs: number | undefined]>; pagesInFlight: number }
  | { type: 'written'; id: number }
  | { type: 'failed'; id: number | undefined; error: ThreadError }
  | { type: 'note'; text: string }
  | { type: 'closed' }
