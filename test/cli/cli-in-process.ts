import { runCli } from '../../cli/run-cli.js'

/**
 * `market-candles ARGS` in process: what the bin runs (cli/run-cli.ts), with its exit code and what
 * it printed (each line as console.log ends it). No Node start per run (about 0.15 s of CPU), for
 * the many runs that check an exit code and a message; each test file keeps a run of the built
 * CLI as a process, the path a user takes. `env` holds only what is given, as the tests give a process.
 * Not for `export`, which writes to the process's streams.
 */
export async function cliInProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`) }, env)
  return { code, stdout, stderr }
}
