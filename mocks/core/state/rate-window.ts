/** What the rate window says of one more request. */
export type RateDecision =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; retryAfter: number; headers: Record<string, string> }

/**
 * The service's side of the rate limit: a sliding one-second window of counted requests per account
 * (contract: rate-limit). Only requests that are answered 200 enter the window (`record`); a 429
 * neither counts nor consumes it. (The SDK's client-side counterpart is `RateLimiter`.)
 */
export class RateWindow {
  readonly #windows = new Map<string, number[]>()

  constructor(
    readonly perSecond: number,
    private readonly clock: () => number,
  ) {}

  #window(account: string, now: number): number[] {
    const window = (this.#windows.get(account) ?? []).filter((t) => t > now - 1000)
    this.#windows.set(account, window)
    return window
  }

  // Whole seconds until the oldest counted request leaves the window, at least 1.
  #resetSeconds(window: number[], now: number): number {
    return window.length === 0 ? 1 : Math.max(1, Math.ceil(Math.round(window[0]! + 1000 - now) / 1000))
  }

  #headers(remaining: number, reset: number): Record<string, string> {
    return { 'ratelimit-limit': String(this.perSecond), 'ratelimit-remaining': String(remaining), 'ratelimit-reset': String(reset) }
  }

  /** Whether the account may make one more counted request now. */
  check(account: string): RateDecision {
    const now = this.clock()
    const window = this.#window(account, now)
    if (window.length < this.perSecond) return { allowed: true, headers: {} }
    const retryAfter = this.#resetSeconds(window, now)
    return { allowed: false, retryAfter, headers: { 'retry-after': String(retryAfter), ...this.#headers(0, retryAfter) } }
  }

  /** Counts one answered request; returns the `RateLimit-*` headers of its response. */
  record(account: string): Record<string, string> {
    const now = this.clock()
    const window = this.#window(account, now)
    window.push(now)
    return this.#headers(Math.max(0, this.perSecond - window.length), this.#resetSeconds(window, now))
  }

  /** Empties every window. */
  clear(): void {
    this.#windows.clear()
  }
}

/** The rate window of the `rateLimit` option, or undefined when it is switched off (`false`). */
export function rateWindowOf(option: false | { perSecond?: number; clock?: () => number } | undefined): RateWindow | undefined {
  if (option === false) return undefined
  const perSecond = option?.perSecond ?? 10
  if (!(Number.isInteger(perSecond) && perSecond > 0)) {
    throw new TypeError(`rateLimit.perSecond must be a positive integer, got ${perSecond}`)
  }
  return new RateWindow(perSecond, option?.clock ?? (() => performance.now()))
}
