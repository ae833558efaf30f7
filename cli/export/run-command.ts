import type { Writable } from 'node:stream'
import { parseExportArgs } from './args.js'
import { watchStdoutPipe } from './stdout-pipe.js'
import { useExportThread } from './thread-choice.js'

// Resolves once the process's stream has taken every byte written so far.
const flushed = (stream: Writable) => new Promise<void>((resolve) => stream.write('', () => resolve()))

function wantsThread(argv: readonly string[]): boolean {
  try {
    return useExportThread(parseExportArgs(argv), Date.now())
  } catch {
    return false // a usage error: runExport prints it, here as well as in a thread
  }
}

/**
 * `market-candles export`: a long history or a follow on a thread of its own (run-in-worker.ts), a
 * short one here on the main thread (thread-choice.ts), each with the same signals and exit codes.
 */
export async function runExportCommand(argv: readonly string[]): Promise<number> {
  if (wantsThread(argv)) return (await import('./run-in-worker.js')).runExportInWorker(argv)
  const { runExport } = await import('./run-export.js')
  const stopWatching = watchStdoutPipe()
  try {
    const code = await runExport(argv)
    await Promise.all([flushed(process.stdout), flushed(process.stderr)])
    return code
  } finally {
    stopWatching()
  }
}
