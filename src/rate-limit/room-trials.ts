/**
 * Tuning of {@link RoomTrials}, in milliseconds: the wait after a first refused trial, and the cap
 * of the wait per request of the share (a limiter holding 2 requests per window waits at most 8 s
 * between refused trials, one holding 5 at most 20 s). Limiters holding little try more often: they
 * have the most to gain, and room that frees up goes to them first, which evens the shares out.
 */
export const TRIAL_GAP = { first: 4000, perRequest: 4000 }

/**
 * How a limiter learns the account's room from a deployment that sends no `RateLimit-*` headers (a
 * 429 with `Retry-After` only, or with nothing: any deployment may, D13). Its 200s then say nothing
 * about others on the account; only a 429 does. The limiter keeps to its share and now and then sends
 * one request beyond it, a *trial*:
 * - answered 200, the account had room: the share grows by one and the next trial may follow at
 *   once, so a limiter alone reaches the whole window within a few round trips;
 * - answered 429, the window was full: the share stays, and the next trial waits twice as long as the
 *   one before (from {@link TRIAL_GAP}.first up to its max), with jitter so limiters drift apart.
 * Limiters of one account so find its rate between them: each trial costs at most one 429, and
 * trials grow rare while the window stays full. One trial at a time: its answer decides the next.
 */
export class RoomTrials {
  /** A trial is in flight. */
  #pending = false
  /** No trial before this time. */
  #notBefore = -Infinity
  /** How long the next refused trial holds the next one back; 0 until one is refused. */
  #gap = 0
  readonly #random: () => number

  constructor(random: () => number) {
    this.#random = random
  }

  /** Milliseconds until a trial may leave (0: now; Infinity while one is in flight). */
  wait(now: number): number {
    return this.#pending ? Infinity : Math.max(0, this.#notBefore - now)
  }

  /** A trial left. */
  sent(): void {
    this.#pending = true
  }

  /** The trial was answered 200: the account had room. The next one may follow at once; its gap, if refused, shrinks. */
  passed(now: number): void {
    this.#pending = false
    this.#gap = Math.floor(this.#gap / 2)
    this.#notBefore = now
  }

  /** The trial was answered 429: the window was full. The next waits longer, up to a cap proportional to `share`. */
  refused(now: number, share: number): void {
    this.#pending = false
    this.#backOff(now, share)
  }

  /**
   * A request within the share was refused: another limiter's trial took its place (the limiter
   * cuts its share). As full a window as a refused trial: the next trial waits as long, or the two
   * would take the place back and forth.
   */
  yielded(now: number, share: number): void {
    this.#backOff(now, share)
  }

  #backOff(now: number, share: number): void {
    const cap = TRIAL_GAP.perRequest * share
    this.#gap = Math.min(cap, Math.max(TRIAL_GAP.first, this.#gap * 2))
    this.#hold(now)
  }

  /** The trial got no answer the limiter can read (a 5xx, a lost connection): the next may go. */
  lost(): void {
    this.#pending = false
  }

  /** Forgets what was learnt (after an idle spell, who uses the account may have changed). */
  reset(): void {
    this.#gap = 0
    this.#notBefore = -Infinity
  }

  // Jitter of ±25 %: limiters refused together do not all try again together.
  #hold(now: number): void {
    this.#notBefore = Math.max(this.#notBefore, now + this.#gap * (0.75 + 0.5 * this.#random()))
  }
}
