import { spawn, type SpawnOptions } from 'node:child_process'

export interface Finished {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  timedOut: boolean
}

/**
 * Runs a command in a process group of its own, bounded in time: past `timeoutMs` the whole group
 * is killed (SIGKILL), so nothing it started outlives the test.
 */
export function runBounded(command: string, args: string[], options: SpawnOptions & { timeoutMs: number; input?: string }): Promise<Finished> & { pid: number | undefined } {
  const { timeoutMs, input, ...spawnOptions } = options
  let pid: number | undefined
  const finished = new Promise<Finished>((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    pid = child.pid
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.stdin!.end(input ?? '')
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child.pid)
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      // Whatever the command left running in its group goes with it.
      killGroup(child.pid)
      resolve({ code, signal, stdout, stderr, timedOut })
    })
  })
  return Object.assign(finished, { pid })
}

/** SIGKILL to a process group; a group already gone is fine. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: nothing left in the group.
  }
}

export interface ServeProcess {
  url: string
  pid: number
  stop(): Promise<void>
}

/**
 * Starts `market-candles serve --port 0` (the built CLI, or `command` such as npx) in a process
 * group of its own and resolves with the URL of its first stdout line. `stop()` sends SIGTERM to the
 * group, then SIGKILL after 5 s.
 */
export function startServe(command: string, args: string[], options: SpawnOptions = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    const exited = new Promise<void>((done) => child.once('close', () => done()))
    const timer = setTimeout(() => {
      killGroup(child.pid)
      reject(new Error(`serve did not print its URL within 30 s: ${stdout}${stderr}`))
    }, 30_000)
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
      const match = /listening on (\S+)/.exec(stdout)
      if (!match) return
      clearTimeout(timer)
      resolve({
        url: match[1]!,
        pid: child.pid!,
        async stop() {
          killGroup(child.pid, 'SIGTERM')
          const kill = setTimeout(() => killGroup(child.pid), 5_000)
          await exited
          clearTimeout(kill)
          killGroup(child.pid)
        },
      })
    })
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited (${code}) before printing its URL: ${stdout}${stderr}`))
    })
  })
}
