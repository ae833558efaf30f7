import { sleep } from '../internal/abort.js'

/** The longest single wall-clock sleep while waiting for a service time: the clock may be moved meanwhile. */
const MAX_NAP_MS = 500
/** Naps before the clock's speed is known. */
const FIRST_NAP_MS = 25

/**
 * Waits until `now()` (a service clock, in epoch ms) reaches `due`, or rejects when `signal` fires.
 * The service's clock may run faster than the wall (a test's mock clock at rate 60): the wait is
 * measured in its time, from its speed as observed, in naps of at most half a second.
 */
export class ServiceTimeWaiter {
  readonly #now: () => number
  #wall = 0
  #service = 0
  #rate = 1
  /** Until the speed is measured, naps are short: a clock at 60x would overshoot a long one. */
  #measured: boolean
  readonly #known: (() => number) | undefined

  /** `rate`: the clock's speed when known (an estimate from `Date` headers knows the speed it assumes); measured otherwise. */
  constructor(now: () => number, rate?: () => number) {
    this.#now = now
    this.#measured = rate !== undefined
    this.#known = rate
  }

  /** Service ms per wall ms: as known, or as observed (1 until measured). */
  get rate(): number {
    return this.#known ? this.#known() : this.#rate
  }

  #observe(): number {
    const wall = performance.now()
    const service = this.#now()
    // Measured over at least 100 ms of wall time, so timer jitter does not swing the estimate.
    if (this.#wall === 0) {
      this.#wall = wall
      this.#service = service
    } else if (wall - this.#wall >= 100) {
      const rate = (service - this.#service) / (wall - this.#wall)
      if (this.#known === undefined) this.#rate = Number.isFinite(rate) && rate > 0 ? rate : 0
      this.#measured = true
      this.#wall = wall
      this.#service = service
    }
    return service
  }

  /** How long until `due` on the service's clock, in its ms (negative when past). */
  remaining(due: number): number {
    return due - this.#observe()
  }

  /**
   * One nap towards `due` on the service's clock: at most half a second of wall time, less when the
   * clock's speed says `due` comes sooner. Resolves early, never rejects, when `signal` fires.
   */
  nap(due: number, signal: AbortSignal): Promise<void> {
    const left = this.remaining(due)
    if (left <= 0) return Promise.resolve()
    // A stopped clock (rate 0) is napped on until someone moves it.
    const rate = this.rate
    const wall = rate > 0 ? Math.ceil(left / rate) : MAX_NAP_MS
    return sleep(Math.max(1, Math.min(wall, this.#measured ? MAX_NAP_MS : FIRST_NAP_MS)), signal).catch(() => {})
  }
}
