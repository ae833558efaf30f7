import { Writable } from 'node:stream'
import { runExport } from '../../cli/export/index.js'

/**
 * `market-candles export ARGS` in process: the run the CLI's export command makes (`runExport`), its
 * output written on the same thread, stdout and stderr kept. No process start per run (about 0.4 s
 * of CPU each), for files that check what lands in the output; the CLI as a process, its signals and
 * its sink thread are the other export tests' (`sinkThread: true` lets the export use its output
 * thread as the CLI would).
 */
export async function exportInProcess(
  args: readonly string[],
  env: Record<string, string>,
  { sinkThread = false }: { sinkThread?: boolean } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const sink = (append: (s: string) => void) => new Writable({ write: (chunk, _enc, done) => (append(String(chunk)), done()) })
  const code = await runExport(args, {
    env,
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    stderrIsTTY: false,
    onInterrupt: () => () => {},
    sinkThread,
  })
  return { code, stdout, stderr }
}
