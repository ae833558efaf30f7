import { argsOrExit } from '../flags/args.js'
import { outputFlushed } from './output-flushed.js'
import { watchStdoutPipe } from './stdout-pipe.js'
import { useExportThread } from '../plan/thread-choice.js'

/**
 * `market-candles export`: a long history or a follow on a thread of its own (run-in-worker.ts), a
 * short one here on the main thread (thread-choice.ts), each with the same signals and exit codes.
 * A usage error or `--help` is answered here, before the export's modules are loaded.
 */
export async function runExportCommand(argv: readonly string[]): Promise<number> {
  const args = argsOrExit(argv, process)
  if (typeof args === 'number') return done(args)
  if (useExportThread(args, Date.now())) return (await import('./run-in-worker.js')).runExportInWorker(argv)
  const { runExport } = await import('../run-export.js')
  const stopWatching = watchStdoutPipe()
  try {
    return await done(await runExport(argv))
  } finally {
    stopWatching()
  }
}

// The exit code, once the process's streams have taken every byte written so far.
async function done(code: number): Promise<number> {
  await outputFlushed()
  return code
}
