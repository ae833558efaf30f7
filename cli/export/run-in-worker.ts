import { Worker } from 'node:worker_threads'

/**
 * The young generation of the export's heap, in MB. A whole history is a stream of short-lived
 * pages; left to itself V8 grows the young generation to its maximum under that allocation rate and
 * keeps it, about 100 MB of RSS that buys no speed here (measured in bench/export.ts).
 */
export const YOUNG_GENERATION_MB = 8

// The bundle ships the worker as dist/export-worker.js; from source (tsx) it is the .ts file.
const workerUrl = import.meta.url.endsWith('.ts') ? new URL('./worker-entry.ts', import.meta.url) : new URL('./export-worker.js', import.meta.url)

/**
 * Runs `market-candles export` in a worker thread whose young generation is capped (a heap limit
 * can only be set when a heap is created). The main thread forwards output and SIGINT: the first
 * stops the export after the page in hand, a second one leaves at once.
 */
export function runExportInWorker(argv: readonly string[]): Promise<number> {
  const worker = new Worker(workerUrl, {
    workerData: { argv: [...argv], stderrIsTTY: Boolean(process.stderr.isTTY), columns: process.stderr.columns },
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  })
  let interrupts = 0
  const onSigint = () => {
    if (++interrupts === 1) worker.postMessage('interrupt')
    else process.exit(130)
  }
  process.on('SIGINT', onSigint)
  // `--out - | head`: the reader left. Stop quietly, with the status a shell gives a SIGPIPE death.
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(141)
    process.stderr.write(`market-candles export: stdout: ${error.message}\n`)
    process.exit(1)
  }
  process.stdout.on('error', onStdoutError)
  return new Promise<number>((resolve) => {
    let code: number | undefined
    worker.on('message', (message: { code?: number }) => {
      if (typeof message?.code === 'number') {
        code = message.code
        resolve(code)
      }
    })
    worker.on('error', (error) => {
      process.stderr.write(`market-candles export: ${error.stack ?? error.message}\n`)
      resolve(1)
    })
    worker.on('exit', () => resolve(code ?? 1))
  }).finally(() => {
    process.off('SIGINT', onSigint)
    process.stdout.off('error', onStdoutError)
  })
}
