/*
 * Clients of one account that share no limiter, against a deployment that sends no RateLimit-*
 * headers (a 429 with Retry-After only, or with nothing: D13), in virtual time
 * (bench/rate-limit/rate-limit-sim.ts: the SDK's RateLimiter against a simulated sliding window of
 * 10 requests a second, 100 ms round trips). Behaviour only: the account is shared evenly, so clients walking as much as each
 * other finish together, with few 429s. The rates are bench 3d's.
 */
import { describe, expect, test } from 'vitest'
import { simulate } from '../../../bench/rate-limit/rate-limit-sim.js'
import { TURN } from '../../../src/rate-limit/trial-turns.js'

/** Start times spread over one turn of the wall clock: the turns fall at every phase of the walks. */
const STARTS = Array.from({ length: 8 }, (_, i) => 1000 + (i * TURN.ms) / 8)

describe('limiters of one account without RateLimit-* headers share it evenly (rate limit, D13)', () => {
  test.each(['retry-after', 'none'] as const)('429 with %s: four clients walking 60 pages each finish within 4 s of each other, whatever the phase of the turns, with at most 5 % of answers 429', async (variant) => {
    for (const [i, start] of STARTS.entries()) {
      const run = await simulate(variant, 4, 240, i + 1, 100, start)
      expect(run.perClient).toEqual([60, 60, 60, 60])
      const spread = Math.max(...run.finishedAt) - Math.min(...run.finishedAt)
      // Limiters that kept what they once won held 3, 3, 2, 2 to the end: 8-10 s apart. Turns in which
      // every limiter gave back and won back: up to 4.4 s apart.
      expect(spread, `start ${start}: done at ${run.finishedAt.join(', ')} ms`).toBeLessThanOrEqual(4000)
      expect(run.share429, `start ${start}: ${run.limited} answers 429`).toBeLessThanOrEqual(0.05)
    }
  })

  test('two clients finish within a second of each other; one alone gets no 429', async () => {
    for (const [i, start] of STARTS.entries()) {
      const two = await simulate('none', 2, 240, i + 1, 100, start)
      expect(Math.max(...two.finishedAt) - Math.min(...two.finishedAt), `start ${start}`).toBeLessThanOrEqual(1000)
      const alone = await simulate('none', 1, 240, i + 1, 100, start)
      expect(alone.limited, `start ${start}`).toBe(0)
    }
  })
})
