import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** CPU time (user + system) this process has used so far, in ms, from process.cpuUsage(). */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

// A full collection on demand, without restarting node with --expose-gc.
setFlagsFromString('--expose-gc')
export const fullGc = runInNewContext('gc') as () => void

/**
 * CPU and wall time of one run of `fn`. The heap is collected before the run (so no run pays for
 * an earlier run's garbage) and again inside the timing after it (so each run pays for all of its
 * own): a major GC otherwise lands in one run of several at random, the largest source of spread.
 */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  fullGc()
  const cpu0 = processCpuMs()
  const wall0 = performance.now()
  const value = await fn()
  fullGc()
  return { value, cpuMs: processCpuMs() - cpu0, wallMs: performance.now() - wall0 }
}
