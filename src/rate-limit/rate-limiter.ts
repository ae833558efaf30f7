import { abortable, sleep } from '../internal/abort.js'

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed in any one-second window: the account's rate. @default 10 */
  perSecond?: number
  /** Extra milliseconds added to the one-second window, against timing jitter. @default 25 */
  marginMs?: number
  /** Clock in milliseconds; tests may inject one. @default performance.now */
  now?: () => number
}

/** Call when the request's response (or failure) has arrived. */
export type ReleaseSlot = () => void

interface Slot {
  readonly sent: number
  /** First requests after start or an idle spell travel on new connections: their delay is unknown. */
  readonly cold: boolean
  completed?: number
  readonly finished: Promise<void>
  finish(): void
}

/** After this long without a request, connections may have closed: the next window is cold again. */
const IDLE_MS = 4000

/**
 * The client-side limit of one account: at most `perSecond` requests reach the service in any
 * one-second window, the sliding window the service counts with (decision D7). Share one limiter
 * between the clients of one account (e.g. clients with different keys of that account).
 *
 * The service counts a request when it arrives, which the client cannot see; it only knows when the
 * request left and when its answer came back. A slot is therefore held until one second after the
 * request's latest plausible arrival: its completion time less the smallest round trip seen so far
 * (a request cannot have arrived later than that, unless its outbound trip was slower than the
 * fastest one). The first window after start or an idle spell counts from completion, because new
 * connections make outbound trips slow and unequal. A plain token bucket would not do: holding
 * `perSecond` tokens, it lets a full burst through and refills, so up to twice `perSecond`
 * requests land in one sliding second.
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
  /** The last `perSecond` slots, oldest first. */
  readonly #slots: Slot[] = []
  #minRoundTrip = Infinity
  #warm = 0
  #lastSent = -Infinity
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

  // When a finished slot may be reused; undefined while its request is still in flight.
  #freeAt(slot: Slot): number | undefined {
    if (slot.completed === undefined) return undefined
    const arrival = slot.cold ? slot.completed : Math.max(slot.sent, slot.completed - this.#minRoundTrip)
    return arrival + this.windowMs
  }

  /** The slot the next request must wait for, if the window is full. */
  #blocking(): Slot | undefined {
    return this.#slots.length < this.perSecond ? undefined : this.#slots[this.#slots.length - this.perSecond]
  }

  /**
   * Milliseconds until one more request may leave: 0 when it may leave now, `Infinity` while it
   * waits for a request in flight to come back.
   */
  delay(): number {
    const now = this.#now()
    const slot = this.#blocking()
    const freeAt = slot === undefined ? now : this.#freeAt(slot)
    if (freeAt === undefined) return Infinity
    return Math.max(0, freeAt - now, this.#pausedUntil - now)
  }

  /**
   * Waits for a slot and takes it; call the returned function when the response arrives. Callers
   * are served in arrival order; an aborted caller leaves the line without taking a slot.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    const turn = this.#queue.then(async () => {
      for (let wait = this.delay(); wait > 0; wait = this.delay()) {
        if (wait === Infinity) await abortable(this.#blocking()!.finished, signal)
        else await sleep(wait, signal)
      }
      return this.#take()
    })
    // The next caller waits for this one to finish, whether it got its slot or gave up.
    this.#queue = turn.then(() => {}, () => {})
    return turn
  }

  #take(): ReleaseSlot {
    const sent = this.#now()
    if (sent - this.#lastSent > IDLE_MS) this.#warm = 0
    this.#lastSent = sent
    let finish!: () => void
    const finished = new Promise<void>((resolve) => (finish = resolve))
    const slot: Slot = { sent, cold: this.#warm++ < this.perSecond, finished, finish }
    this.#slots.push(slot)
    if (this.#slots.length > this.perSecond) this.#slots.shift()
    return () => {
      if (slot.completed !== undefined) return
      slot.completed = this.#now()
      this.#minRoundTrip = Math.min(this.#minRoundTrip, slot.completed - slot.sent)
      slot.finish()
    }
  }

  /** Holds every request back for `ms` from now, e.g. the `Retry-After` of a 429. */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + ms)
  }
}
