import { Worker } from 'node:worker_threads'
import type { ExportFormat } from '../flags/export-format.js'
import type { Series } from '../plan/series.js'
import type { Kind } from '../sinks/columns.js'
import type { SinkOptions } from '../sinks/index.js'
import { plannedSeriesKey, type AnyCandle, type Sink } from '../sinks/sink.js'
import type { FromSinkThread, SinkThreadData, ToSinkThread } from './messages.js'
import { encodePage } from './page-columns.js'
import { DEFAULT_PART_ROWS } from '../flags/part-rows-flag.js'
import { fromThreadError } from './thread-error.js'
import { workerScript } from './worker-script.js'

const script = workerScript(import.meta.url, './thread-entry.ts', './export-sink.js')
/*
 * The output's thread holds one page at a time (the export's thread holds the pages in flight), so
 * its young generation is small: over 2 M candles into CSV, RSS grew by 40 MB with 32 MB and by 28 MB
 * with 8 MB (one run each, bench/export/export.ts (b), 2026-11-25).
 */
const SINK_YOUNG_GENERATION_MB = 8
/*
 * Its old generation: 32 MB (a PostgreSQL batch of 16 pages is a few MB). Under the export's 96 MB
 * ceiling and growing factor it let dead CSV text pile up: RSS +37 and +39 MB over 2 M candles
 * against +29 and +19 MB (two runs each, 2026-11-25). Parquet keeps 96 MB: it holds a part's rows
 * (100,000 by default) and encodes them at once.
 */
const SINK_OLD_GENERATION_MB = 32
const PARQUET_OLD_GENERATION_MB = 96
/*
 * Heap a Parquet part needs per row while it is encoded (the writer's copies of the text columns,
 * an aggregated part's flattened lists and their levels): the least old generation that wrote a part
 * of a million rows was 78 MB for exchange candles, 201 MB for aggregated ones (2026-11-28,
 * `--max-old-space-size` bisected), about 66 and 180 bytes a row over a base of 20-40 MB.
 */
const PARQUET_HEAP_BYTES_PER_ROW = 256

/** The output thread's old generation: more for a Parquet part larger than the default. */
export function sinkOldGenerationMb(format: ExportFormat, partRows: number = DEFAULT_PART_ROWS): number {
  if (format !== 'parquet') return SINK_OLD_GENERATION_MB
  return Math.max(PARQUET_OLD_GENERATION_MB, SINK_OLD_GENERATION_MB + Math.ceil((partRows * PARQUET_HEAP_BYTES_PER_ROW) / 2 ** 20))
}
/*
 * Pages handed over before the oldest is written. With 2 the export's thread waited whenever the
 * output's lagged a page or two: 0.50 against 0.56x the raw loop into SQLite, 0.57 against 0.61x into
 * JSON Lines (3 rounds side by side); 16 and 32 measured the same as 8. A page waits as columns (~60 KB).
 */
const PAGES_IN_FLIGHT = 8

/**
 * Opens a file or database output on a thread of its own. The export's thread fetches, parses and
 * walks; formatting and writing (JSON.stringify, SQLite's inserts, the COPY encoding) run beside it
 * on the other core, so the export goes at the speed of the download rather than download plus
 * write. A page crosses as columns (page-columns.ts); each write resolves once the sink's thread has
 * written it, so progress and a failure's totals count stored pages only, as with a sink in the thread.
 */
export async function openThreadedSink(out: string, format: ExportFormat, kind: Kind, planned: readonly Series[], options: SinkOptions = {}): Promise<Sink> {
  const data: SinkThreadData = { out, format, kind, planned: [...planned], pgSchema: options.pgSchema, partRows: options.partRows, env: { ...(options.env ?? process.env) } }
  const worker = new Worker(script.url, {
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: SINK_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: sinkOldGenerationMb(format, options.partRows) },
    ...(script.execArgv ? { execArgv: script.execArgv } : {}),
  })
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>()
  let nextId = 0
  // Set once the thread can take no more pages: its error, or its end.
  let broken: Error | undefined
  let inFlight = 1
  let settle: ((error?: Error) => void) | undefined
  const fail = (error: Error) => {
    broken ??= error
    for (const p of pending.values()) p.reject(error)
    pending.clear()
    settle?.(error)
  }
  const last = await new Promise<Map<string, number>>((resolve, reject) => {
    settle = (error) => reject(error)
    worker.on('message', (message: FromSinkThread) => {
      switch (message.type) {
        case 'opened':
          settle = undefined
          inFlight = message.pagesInFlight
          resolve(new Map(message.last.filter((e): e is [string, number] => e[1] !== undefined)))
          return
        case 'written':
          pending.get(message.id)?.resolve()
          pending.delete(message.id)
          return
        case 'failed': {
          const error = fromThreadError(message.error)
          if (message.id === undefined) return fail(error)
          pending.get(message.id)?.reject(error)
          pending.delete(message.id)
          return
        }
        case 'note':
          options.note?.(message.text)
          return
        case 'closed':
          settle?.()
          return
      }
    })
    worker.on('error', (error) => fail(error))
    worker.on('exit', (code) => fail(new Error(`the output's thread ended (exit code ${code}) before the output was closed`)))
  })
  const send = (message: ToSinkThread, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer)
  return {
    lastStored: (series) => last.get(plannedSeriesKey(series)),
    // Pages wait in the output thread's queue, so the export's thread does not stop for the output's
    // now and then slower page; a sink that batches takes as many as it gathers.
    pagesInFlight: Math.max(PAGES_IN_FLIGHT, inFlight),
    write(series: Series, candles: readonly AnyCandle[]) {
      if (broken) return Promise.reject(broken)
      const id = nextId++
      const { page, transfer } = encodePage(kind, candles)
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        send({ type: 'write', id, series, page }, transfer)
      })
    },
    async close() {
      if (broken) {
        await worker.terminate()
        return
      }
      // Every page sent is written (or has failed) before the output closes.
      const closed = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())))
      send({ type: 'close' })
      try {
        await closed
      } finally {
        broken ??= new Error('the output is closed')
        await worker.terminate()
      }
    },
  }
}
