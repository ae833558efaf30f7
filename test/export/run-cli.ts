import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

/** The built CLI (npm test builds it first); run with this Node. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface RunningCli {
  child: ChildProcess
  /** stdout and stderr so far. */
  output(): { stdout: string; stderr: string }
  /** Resolves when the child has exited; kills it (SIGKILL) after `timeoutMs`. */
  result: Promise<CliResult>
}

/** Starts `market-candles ...args` as a child process; the environment holds only what is given. */
export function startCli(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 30_000): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const result = once(child, 'close').then(([code, signal]) => {
    clearTimeout(timer)
    return { code: code as number | null, signal: signal as NodeJS.Signals | null, stdout, stderr }
  })
  return { child, output: () => ({ stdout, stderr }), result }
}

/** Runs `market-candles ...args` to its end. */
export function runCli(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<CliResult> {
  return startCli(args, env, timeoutMs).result
}

/** Waits until `check` holds, polling; throws after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
