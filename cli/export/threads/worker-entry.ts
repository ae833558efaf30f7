/**
 * The export's own thread (see run-in-worker.ts): runs the command with the main thread's terminal
 * facts, takes SIGINT and SIGTERM from it as messages, and reports the exit code once all output is through.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { outputFlushed } from './output-flushed.js'
import { runExport, type StopSignal } from '../run-export.js'

interface ExportWorkerData {
  argv: string[]
  stderrIsTTY: boolean
  columns: number | undefined
}

const data = workerData as ExportWorkerData
// The worker's stderr forwards to the main thread's; the progress bars need to know it is a terminal.
if (data.stderrIsTTY) Object.assign(process.stderr, { isTTY: true, columns: data.columns })

let interrupt: ((signal: StopSignal) => void) | undefined
// A Ctrl-C or SIGTERM that comes before the export listens still counts.
let pending: StopSignal | undefined
parentPort!.on('message', (message: unknown) => {
  const signal = message === 'interrupt' ? 'SIGINT' : message === 'terminate' ? 'SIGTERM' : undefined
  if (signal === undefined) return
  if (interrupt) interrupt(signal)
  else pending ??= signal
})

const code = await runExport(data.argv, {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: data.stderrIsTTY,
  onInterrupt: (handler) => {
    interrupt = handler
    if (pending) handler(pending)
    return () => (interrupt = undefined)
  },
})
await outputFlushed()
parentPort!.postMessage({ code })
