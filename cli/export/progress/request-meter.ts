/** Counts candle requests and 429s from the client's hooks, and the recent request rate. */
export class RequestMeter {
  requests = 0
  rateLimited = 0
  /** performance.now() of the first and the latest response. */
  firstAt: number | undefined
  lastAt: number | undefined
  readonly #recent: number[] = []
  readonly #windowMs: number

  constructor(windowMs = 5000) {
    this.#windowMs = windowMs
  }

  /** One response to a candle request (any status). */
  response(status: number, now = performance.now()): void {
    this.requests++
    this.firstAt ??= now
    this.lastAt = now
    if (status === 429) this.rateLimited++
    this.#recent.push(now)
    this.#trim(now)
  }

  /** Responses per second over the last few seconds. */
  perSecond(now = performance.now()): number {
    this.#trim(now)
    const n = this.#recent.length
    if (n < 2) return 0
    // n responses span n - 1 intervals; a window of at least a second keeps a burst from reading high.
    const span = Math.max(now - this.#recent[0]!, 1000)
    return ((n - 1) * 1000) / span
  }

  #trim(now: number): void {
    let drop = 0
    while (drop < this.#recent.length && this.#recent[drop]! < now - this.#windowMs) drop++
    if (drop > 0) this.#recent.splice(0, drop)
  }
}
