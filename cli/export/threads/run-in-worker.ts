import { setFlagsFromString } from 'node:v8'
import { Worker } from 'node:worker_threads'
import { EXIT } from '../../exit-codes.js'
import { watchStdoutPipe } from './stdout-pipe.js'
import { workerScript } from '../sink-thread/worker-script.js'

/**
 * The young generation of the export's heap, in MB. A whole history is a stream of short-lived
 * pages; left to itself V8 grows the young generation to its maximum under that allocation rate and
 * keeps it, about 100 MB of RSS (measured in bench/export/export.ts). With the output on its own thread a
 * page leaves this heap as soon as it is in order, and 16 MB measured best: 0.64, 0.68 and 0.69x the
 * raw loop into SQLite, CSV and JSON Lines against 0.59, 0.55 and 0.61x with 32 MB (4 rounds side by
 * side; 8 MB was slower, 64 MB much slower), RSS still flat (bench/export/export.ts, 2026-11-25).
 */
export const YOUNG_GENERATION_MB = 16

/**
 * The old generation's ceiling, in MB. With the small young generation, pages still in flight are
 * promoted, and at a fast download V8 lets the old generation fill with dead pages before it
 * collects: committed 22 -> 55 MB while 17-45 MB was live, RSS +66 MB between 200,000 and 2,000,000
 * candles. Under a ceiling V8 collects sooner; the export's live heap (8 pages in flight) stays well
 * below it. With the 16 MB young generation, 96 MB let RSS grow 26-41 MB into CSV and SQLite over 2 M
 * candles, 80 MB 4-22 MB at the same speed within the spread, 64 MB 8-11 MB but 0.50-0.53x the raw
 * loop against 0.55-0.69x (two runs each, 2026-11-25). Parquet's output thread keeps 96 MB.
 */
export const OLD_GENERATION_MB = 80

/** The export thread's heap limits; the bench runs its worker with these same limits. */
export const EXPORT_WORKER_LIMITS = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: OLD_GENERATION_MB } as const

/**
 * How far V8 lets the old generation grow past what a full collection left alive, in percent
 * (factor 1 + p/100). V8 picks the factor from the heap's ceiling: 1.3 under 256 MB, so under the
 * 96 MB cap it ran a full mark-compact every ~90 ms of a fast download (28 per 500 pages against 4
 * uncapped, the garbage collector 15 % of the export thread against 5 %). 300 is the factor V8 itself
 * uses for heaps of 2 GB and more; the ceiling above still bounds the heap.
 */
export const HEAP_GROWING_PERCENT = 300

/**
 * Sets the growing factor for the export's heap. V8 takes it only process-wide (a worker's options
 * cannot carry V8 flags), so it is set before the export's worker starts; the main thread's own heap
 * stays a few MB, which the factor does not change in practice.
 */
export function useExportHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}

const script = workerScript(import.meta.url, './worker-entry.ts', './export-worker.js')

/**
 * Runs `market-candles export` in a worker thread whose young generation is capped (a heap limit
 * can only be set when a heap is created). The main thread forwards output, SIGINT and SIGTERM: the
 * first stops the export after the page in hand, a second one leaves at once.
 */
export function runExportInWorker(argv: readonly string[]): Promise<number> {
  useExportHeapGrowth()
  const worker = new Worker(script.url, {
    ...(script.execArgv ? { execArgv: script.execArgv } : {}),
    workerData: { argv: [...argv], stderrIsTTY: Boolean(process.stderr.isTTY), columns: process.stderr.columns },
    resourceLimits: { ...EXPORT_WORKER_LIMITS },
  })
  // The first signal stops the export after the page in hand (the worker decides the exit code);
  // a second one leaves at once: every page written is whole.
  let stops = 0
  const onSigint = () => {
    if (++stops === 1) worker.postMessage('interrupt')
    else process.exit(EXIT.interrupted)
  }
  const onSigterm = () => {
    if (++stops === 1) worker.postMessage('terminate')
    else process.exit(EXIT.terminated)
  }
  process.on('SIGINT', onSigint)
  process.on('SIGTERM', onSigterm)
  const stopWatchingStdout = watchStdoutPipe()
  return new Promise<number>((resolve) => {
    let code: number | undefined
    worker.on('message', (message: { code?: number }) => {
      if (typeof message?.code === 'number') {
        code = message.code
        resolve(code)
      }
    })
    worker.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') process.stderr.write(`market-candles export: out of memory (the export's heap is limited to ${OLD_GENERATION_MB} MB)\n`)
      else process.stderr.write(`market-candles export: ${error.stack ?? error.message}\n`)
      resolve(1)
    })
    worker.on('exit', () => resolve(code ?? 1))
  }).finally(() => {
    process.off('SIGINT', onSigint)
    process.off('SIGTERM', onSigterm)
    stopWatchingStdout()
  })
}
