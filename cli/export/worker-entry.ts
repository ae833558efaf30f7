/**
 * The export's own thread (see run-in-worker.ts): runs the command with the main thread's terminal
 * facts, takes SIGINT from it as a message, and reports the exit code once all output is through.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { Writable } from 'node:stream'
import { runExport } from './run-export.js'

interface ExportWorkerData {
  argv: string[]
  stderrIsTTY: boolean
  columns: number | undefined
}

const data = workerData as ExportWorkerData
// The worker's stderr forwards to the main thread's; the progress bars need to know it is a terminal.
if (data.stderrIsTTY) Object.assign(process.stderr, { isTTY: true, columns: data.columns })

let interrupt: (() => void) | undefined
// A Ctrl-C that comes before the export listens still counts.
let pending = false
parentPort!.on('message', (message: unknown) => {
  if (message !== 'interrupt') return
  if (interrupt) interrupt()
  else pending = true
})

// Resolves once the main thread has taken every byte written so far.
const flushed = (stream: Writable) => new Promise<void>((resolve) => stream.write('', () => resolve()))

const code = await runExport(data.argv, {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: data.stderrIsTTY,
  onInterrupt: (handler) => {
    interrupt = handler
    if (pending) handler()
    return () => (interrupt = undefined)
  },
})
await Promise.all([flushed(process.stdout), flushed(process.stderr)])
parentPort!.postMessage({ code })
