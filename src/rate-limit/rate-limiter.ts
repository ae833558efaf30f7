import { sleep } from '../client/abortable-sleep.js'

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed in any one-second window: the account's rate. @default 10 */
  perSecond?: number
  /**
   * Extra milliseconds added to the window, to absorb the jitter between sending a request and the
   * service counting it. @default 25
   */
  marginMs?: number
  /** Clock in milliseconds; tests may inject one. @default performance.now */
  now?: () => number
}

/**
 * The client-side limit of one account: at most `perSecond` requests leave in any window of one
 * second (plus a margin), the same sliding window the service counts with (decision D7). One limiter
 * can be shared by several clients, e.g. clients with different keys of the same account.
 *
 * Why not a plain token bucket: a bucket holding `perSecond` tokens lets a full burst through and
 * then refills, so up to twice `perSecond` requests can land in one sliding second and draw 429s.
 *
 * @example
 * const limiter = new RateLimiter({ perSecond: 10 })
 * const a = createClient({ apiKey: keyA, rateLimit: limiter })
 * const b = createClient({ apiKey: keyB, rateLimit: limiter }) // same account: one shared limit
 */
export class RateLimiter {
  readonly perSecond: number
  readonly windowMs: number
  readonly #now: () => number
  /** Send times of the last `perSecond` requests, oldest first. */
  readonly #sent: number[] = []
  #pausedUntil = 0
  #queue: Promise<void> = Promise.resolve()

  constructor(options: RateLimiterOptions = {}) {
    const perSecond = options.perSecond ?? 10
    const margin = options.marginMs ?? 25
    if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`perSecond must be a positive integer, got ${perSecond}`)
    if (!Number.isFinite(margin) || margin < 0) throw new RangeError(`marginMs must be a non-negative number, got ${margin}`)
    this.perSecond = perSecond
    this.windowMs = 1000 + margin
    this.#now = options.now ?? (() => performance.now())
  }

  /** Milliseconds until one more request may leave (0 when it may leave now). */
  delay(): number {
    const now = this.#now()
    const windowWait = this.#sent.length < this.perSecond ? 0 : this.#sent[this.#sent.length - this.perSecond]! + this.windowMs - now
    return Math.max(0, windowWait, this.#pausedUntil - now)
  }

  /**
   * Waits for a slot and takes it. Callers are served in arrival order; an aborted caller leaves
   * the line without taking a slot.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(async () => {
      for (let wait = this.delay(); wait > 0; wait = this.delay()) await sleep(wait, signal)
      this.#sent.push(this.#now())
      if (this.#sent.length > this.perSecond) this.#sent.shift()
    })
    // The next caller waits for this one to finish, whether it got its slot or gave up.
    this.#queue = turn.catch(() => {})
    return turn
  }

  /** Holds every request back for `ms` from now, e.g. the `Retry-After` of a 429. */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + ms)
  }
}
