/**
 * Servers under test run in their own child processes, so neither shares an event loop (or a
 * core's worth of time slices) with the load driver in the bench process.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/** A server child whose first stdout line was `listening on http://HOST:PORT`. */
export interface ChildServer {
  readonly name: string
  readonly url: string
  readonly pid: number
  /** CPU time (user + system) the child has used so far, in ms; `NaN` where /proc is missing. */
  cpuMs(): number
  /** SIGTERM, then SIGKILL after a grace period; resolves once the child is gone. */
  stop(): Promise<void>
}

const STARTUP_MS = 20_000
const STOP_GRACE_MS = 2_000
const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:\d+)\s*$/

// Every child this process started and has not reaped yet; killed on any exit of the bench.
const live = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL')
})

/** Milliseconds per clock tick of /proc's times: USER_HZ is 100 on Linux. */
export const TICK_MS = 10

/**
 * Linux only: a /proc/PID/stat (or /proc/PID/task/TID/stat) file, its command name and the fields
 * after it: `fields[1]` is the parent's PID, `fields[11]`..`fields[14]` utime, stime, cutime and
 * cstime in ticks. Throws when the process is gone.
 */
export function readProcStat(path: string): { comm: string; fields: string[] } {
  const stat = readFileSync(path, 'utf8')
  // The command name, in parentheses, may hold spaces and parentheses: it ends at the last ')'.
  const end = stat.lastIndexOf(')')
  return { comm: stat.slice(stat.indexOf('(') + 1, end), fields: stat.slice(end + 2).split(' ') }
}

/** Linux only: utime + stime of `pid` from /proc/PID/stat, in ms. */
export function procCpuMs(pid: number): number {
  try {
    const { fields } = readProcStat(`/proc/${pid}/stat`)
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return Number.NaN
  }
}

/**
 * Linux only: CPU ms of `pid` and its children, live (utime + stime) and reaped (its cutime +
 * cstime): a PostgreSQL postmaster and its backends. `NaN` where /proc is missing.
 */
export function processTreeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN
  const fieldsOf = (p: string) => readProcStat(`/proc/${p}/stat`).fields
  try {
    const own = fieldsOf(String(pid))
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])
    for (const p of readdirSync('/proc')) {
      if (!/^\d+$/.test(p)) continue
      try {
        const f = fieldsOf(p)
        if (Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12])
      } catch {
        // gone meanwhile: its time is in the parent's cutime once reaped
      }
    }
    return ticks * TICK_MS
  } catch {
    return Number.NaN
  }
}

/**
 * Starts `node ...args` and waits for its `listening on` line. Rejects (after killing the child)
 * when it exits, prints something else first, or takes longer than STARTUP_MS.
 */
export function startChildServer(name: string, args: readonly string[]): Promise<ChildServer> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  live.add(child)
  let stderr = ''
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (s: string) => {
    if (stderr.length < 4000) stderr += s
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => (live.delete(child), resolve())))

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    await exited
    clearTimeout(timer)
  }

  return new Promise<ChildServer>((resolve, reject) => {
    let out = ''
    let settled = false
    const fail = (why: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void stop()
      reject(new Error(`${name} (${args.join(' ')}): ${why}${stderr ? `\n--- stderr ---\n${stderr.trimEnd()}` : ''}`))
    }
    const timer = setTimeout(() => fail(`no 'listening on' line within ${STARTUP_MS} ms`), STARTUP_MS)
    child.once('error', (error) => fail(error.message))
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before listening`))
    child.stdout!.setEncoding('utf8')
    const onData = (s: string) => {
      out += s
      const nl = out.indexOf('\n')
      if (nl < 0) return
      child.stdout!.off('data', onData)
      child.stdout!.resume() // drain the rest of the banner
      const match = LISTENING.exec(out.slice(0, nl))
      if (!match) return fail(`first stdout line was ${JSON.stringify(out.slice(0, nl))}`)
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ name, url: match[1]!, pid: child.pid!, cpuMs: () => procCpuMs(child.pid!), stop })
    }
    child.stdout!.on('data', onData)
  })
}
