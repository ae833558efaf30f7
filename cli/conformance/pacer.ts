import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Spaces requests out so a real service never sees a burst: counted (candle) requests at most
 * `perSecond` a second, below the contract's 10 per account (contract.md#rate-limit), so no 429
 * unless a rule asks for one; catalog requests at most 20 a second, to be considerate.
 */
export class Pacer {
  #next = { counted: 0, catalog: 0 }
  readonly #gap: { counted: number; catalog: number }

  constructor(perSecond: number) {
    this.#gap = { counted: 1000 / perSecond, catalog: 50 }
  }

  /** Waits for the next slot of its kind. */
  async slot(kind: 'counted' | 'catalog'): Promise<void> {
    const now = performance.now()
    const at = Math.max(now, this.#next[kind])
    this.#next[kind] = at + this.#gap[kind]
    if (at > now) await sleep(at - now)
  }

  /** Waits until the rate window holds none of our requests (for rules that read `RateLimit-Remaining`). */
  async drainWindow(): Promise<void> {
    const wait = Math.max(this.#next.counted - performance.now(), 0) + 1100
    await sleep(wait)
  }
}
