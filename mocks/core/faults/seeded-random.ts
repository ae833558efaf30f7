import type { Latency } from './fault-schema.js'

/** mulberry32: a small seeded generator of numbers in [0, 1); the same seed, the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The longest delay a latency fault draws: a lognormal tail is cut here. */
export const MAX_LATENCY_MS = 600_000

/** One delay in milliseconds drawn from `latency` with `random`, at most {@link MAX_LATENCY_MS}. */
export function drawLatency(latency: Latency, random: () => number): number {
  if (typeof latency === 'number') return Math.min(latency, MAX_LATENCY_MS)
  if (latency.dist === 'uniform') return Math.min(latency.min_ms + random() * (latency.max_ms - latency.min_ms), MAX_LATENCY_MS)
  // Box-Muller: a standard normal from two uniforms (1 - u keeps the log finite).
  const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  return Math.min(latency.median_ms * Math.exp(latency.sigma * z), MAX_LATENCY_MS)
}
