/** CPU time (user + system) this process has used so far, in ms, from process.cpuUsage(). */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** CPU and wall time of one run of `fn`. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpu0 = processCpuMs()
  const wall0 = performance.now()
  const value = await fn()
  return { value, cpuMs: processCpuMs() - cpu0, wallMs: performance.now() - wall0 }
}
