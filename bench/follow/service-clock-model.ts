/**
 * A reference server's clock as a function of this process's wall clock, for benchmarks whose
 * server clock runs fast (`serve --clock-rate N`): from the quickest of several bracketed
 * `GET /_mock/clock` (on a loaded machine one round trip can take 100 ms: 3 s of a clock at 30x).
 */
export async function serviceClockOf(url: string, rate: number): Promise<() => number> {
  let best = { rtt: Infinity, at: 0, anchor: 0 }
  for (let i = 0; i < 7; i++) {
    const before = performance.now()
    const { now } = (await (await fetch(`${url}/_mock/clock`)).json()) as { now: string }
    const after = performance.now()
    if (after - before < best.rtt) best = { rtt: after - before, at: (before + after) / 2, anchor: Date.parse(now) }
  }
  const { at, anchor } = best
  return () => anchor + (performance.now() - at) * rate
}
