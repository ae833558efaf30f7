import { setTimeout as sleep } from 'node:timers/promises'
import { RequestCap } from './request-cap.js'
import { plural } from '../../src/internal/plural.js'

/** Counted requests a second without `--rate`, below the contract's 10 per account. */
export const DEFAULT_COUNTED_PER_SECOND = 8
/** Counted requests a second never exceed this, whatever `--rate` allows. */
export const MAX_COUNTED_PER_SECOND = 9

/**
 * Spaces requests out so a real service never sees a burst: counted (candle) requests at most
 * `counted` a second, below the contract's 10 per account (contract.md#rate-limit), so no 429
 * unless a rule asks for one; catalog requests at most 20 a second, to be considerate. With
 * `--rate N` (`everyRequest`), every request the run sends, paced or not, also keeps within N in
 * any second ({@link RequestCap}).
 */
export class Pacer {
  #next = { counted: 0, catalog: 0 }
  readonly #gap: { counted: number; catalog: number }
  /** The cap of `--rate` on every request, if given. */
  readonly cap: RequestCap | undefined

  constructor(options: { everyRequest?: number | undefined } = {}) {
    const counted = options.everyRequest === undefined ? DEFAULT_COUNTED_PER_SECOND : Math.min(options.everyRequest, MAX_COUNTED_PER_SECOND)
    this.#gap = { counted: 1000 / counted, catalog: 50 }
    this.cap = options.everyRequest === undefined ? undefined : new RequestCap(options.everyRequest)
  }

  /** Counted requests a second. */
  get countedPerSecond(): number {
    return 1000 / this.#gap.counted
  }

  /** Waits for the next slot of its kind. */
  async slot(kind: 'counted' | 'catalog'): Promise<void> {
    const now = performance.now()
    const at = Math.max(now, this.#next[kind])
    this.#next[kind] = at + this.#gap[kind]
    if (at > now) await sleep(at - now)
  }

  /**
   * Why `count` requests cannot go within one second under `--rate`, or undefined when they can:
   * rules that need a burst skip with this instead of sending it slowly.
   */
  tooFewFor(count: number): string | undefined {
    const cap = this.cap?.perSecond
    return cap !== undefined && cap < count ? `--rate ${cap} allows ${plural(cap, 'request')} in a second; this rule needs ${count} within one` : undefined
  }

  /** Waits until the rate window holds none of our requests (for rules that read `RateLimit-Remaining`). */
  async drainWindow(): Promise<void> {
    const wait = Math.max(this.#next.counted - performance.now(), 0) + 1100
    await sleep(wait)
  }
}
