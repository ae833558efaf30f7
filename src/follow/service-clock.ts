import { sleep } from '../internal/abort.js'

/**
 * The service's time as the client learns it from the `Date` header of its answers, so a follow
 * polls at the right moment when the machine's clock is off, or the service's clock is shifted.
 *
 * `Date` has whole seconds: an answer dated `D`, sent at local time `s` and received at `r`, puts the
 * service's offset from the local clock within `[D - r, D + 1000 - s]`. Each answer narrows that
 * range; one that falls outside it (the service's clock was moved) starts it again. The estimate is
 * the middle of the range: within half a second plus the round trip of the truth.
 */
export class DateHeaderClock {
  #low = -Infinity
  #high = Infinity
  #local: () => number

  constructor(local: () => number = Date.now) {
    this.#local = local
  }

  /** Epoch ms of the service's clock, estimated; the local clock until an answer has been seen. */
  now(): number {
    return this.#local() + this.offset()
  }

  /** Service time less local time, estimated (0 until an answer has been seen). */
  offset(): number {
    return this.#low === -Infinity ? 0 : (this.#low + this.#high) / 2
  }

  /** Learns from one answer's `Date` header, sent at local `sent` and received at local `received`. */
  observe(date: string | null, sent: number, received: number): void {
    const d = date === null ? Number.NaN : Date.parse(date)
    if (!Number.isFinite(d)) return
    const low = d - received
    const high = d + 1000 - sent
    if (low > this.#high || high < this.#low) {
      this.#low = low
      this.#high = high
    } else {
      this.#low = Math.max(this.#low, low)
      this.#high = Math.min(this.#high, high)
    }
  }

  /** The local clock this estimate is measured against. */
  local(): number {
    return this.#local()
  }
}

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
  readonly #known: number | undefined

  /** `rate`: the clock's speed when known (1 for an estimate from `Date` headers); measured otherwise. */
  constructor(now: () => number, rate?: number) {
    this.#now = now
    this.#measured = rate !== undefined
    this.#known = rate
    if (rate !== undefined) this.#rate = rate
  }

  /** Service ms per wall ms, as observed (1 until measured). */
  get rate(): number {
    return this.#rate
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
    const wall = this.#rate > 0 ? Math.ceil(left / this.#rate) : MAX_NAP_MS
    return sleep(Math.max(1, Math.min(wall, this.#measured ? MAX_NAP_MS : FIRST_NAP_MS)), signal).catch(() => {})
  }
}
