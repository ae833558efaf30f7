import type { SlotLimiter } from '../../../src/index.js'

/**
 * A limiter that reports how long each request waited for its slot (ms, 0 included), for the
 * metrics; it hands out the same slots as `limiter`.
 */
export function timedLimiter(limiter: SlotLimiter, onWait: (ms: number) => void): SlotLimiter {
  return {
    get share() {
      return limiter.share
    },
    async acquire(signal) {
      const started = performance.now()
      const release = await limiter.acquire(signal)
      onWait(performance.now() - started)
      return release
    },
  }
}
