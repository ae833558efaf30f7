import type { SlotLimiter } from '../../../src/index.js'
import { sleep } from '../../../src/internal/abort.js'

/** While Redis fails, a paused request asks again this often (wall ms). */
export const REDIS_RETRY_MS = 1000

/** What the export hears of Redis: it failed (once per spell), and it answers again. */
export interface RedisSpells {
  down(message: string): void
  up(): void
}

/**
 * The Redis limiter of `export --follow --redis`: when Redis fails (a RedisLimiterError: stopped,
 * unreachable, too slow), requests pause and ask again every {@link REDIS_RETRY_MS} until it
 * answers, instead of ending the export. Nothing is sent meanwhile, so nothing is sent outside the
 * shared window: when Redis comes back (empty, without persistence) the account's window at the
 * service holds none of this process's requests, and there is no burst of 429s. `spells` hears
 * once when Redis fails and once when it answers again. Other errors (an abort) pass through.
 */
export function pauseWhileRedisFails(limiter: SlotLimiter, spells: RedisSpells): SlotLimiter {
  let down = false
  return {
    get share() {
      return limiter.share
    },
    async acquire(signal) {
      for (;;) {
        try {
          const release = await limiter.acquire(signal)
          if (down) {
            down = false
            spells.up()
          }
          return release
        } catch (error) {
          if (!(error instanceof Error) || error.name !== 'RedisLimiterError' || signal?.aborted) throw error
          if (!down) {
            down = true
            spells.down(error.message)
          }
          await sleep(REDIS_RETRY_MS, signal)
        }
      }
    },
  }
}
