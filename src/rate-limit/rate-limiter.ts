import { abortable, sleep } from '../internal/abort.js'

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed in any one-second window: the account's rate. @default 10 */
  perSecond?: number
  /** Extra milliseconds added to the one-second window, against timing jitter. @default 25 */
  marginMs?: number
  /** Clock in milliseconds; tests may inject one. @default performance.now */
  now?: () => number
  /** Random numbers in [0, 1) for the jitter after a 429; tests may inject one. @default Math.random */
  random?: () => number
}

/** What the service said in answer to a request: its status and headers (the `RateLimit-*` fields, `Retry-After`). */
export interface SlotAnswer {
  status: number
  headers: Headers | Record<string, string>
}

/**
 * Call when the request's response (or failure) has arrived, with the answer when there is one: the
 * limiter learns the account's state from it.
 */
export type ReleaseSlot = (answer?: SlotAnswer) => void

interface Slot {
  readonly sent: number
  /** First requests after start or an idle spell travel on new connections: their delay is unknown. */
  readonly cold: boolean
  /** Sent while the limiter was still learning whether the account is shared. */
  readonly probe: boolean
  completed?: number
  /** Answered 429: the service did not count it. */
  limited?: boolean
  readonly finished: Promise<void>
  finish(): void
}

/** After this long without a request, connections may have closed: the next window is cold again. */
const IDLE_MS = 4000

/** Share of a 429's wait added at random, so clients that met one 429 do not all resume together. */
const PAUSE_JITTER = 0.25

function header(headers: Headers | Record<string, string>, name: string): number | undefined {
  const raw = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()])
  if (raw === null || raw === undefined || raw.trim() === '') return undefined
  const value = Number(raw)
  return Number.isFinite(value) && value >= 0 ? value : undefined
}

/**
 * The client-side limit of one account: at most `perSecond` requests reach the service in any
 * one-second window, the sliding window the service counts with (contract: rate-limit). Share one
 * limiter between the clients of one account (e.g. clients with different keys of that account).
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
 * **Other processes on the same account.** A limiter cannot see requests it did not send, but the
 * service tells it: every answer carries `RateLimit-Remaining`, from which the limiter works out how
 * many requests others made in the same second, and keeps to the rest (its *share*, at most
 * `perSecond`). It starts with half a window and opens the whole window at once when the answers
 * show nobody else; with others, it takes half of the room it sees, once a second, so two limiters
 * do not both grab the same room. A 429 lowers the share to what got through, and holds every
 * request back for `Retry-After` plus up to a quarter of it at random, so limiters that met the same
 * full window do not resume in lockstep. Several uncoordinated limiters of one account so settle on
 * the account's rate together.
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
  readonly #random: () => number
  /** The last `perSecond` slots, oldest first. */
  readonly #slots: Slot[] = []
  #minRoundTrip = Infinity
  #warm = 0
  #lastSent = -Infinity
  #pausedUntil = 0
  #queue: Promise<void> = Promise.resolve()
  /** The account's rate as the service states it (`RateLimit-Limit`), never above `perSecond`. */
  #limit: number
  /** Requests this limiter lets through per window: the account's rate less what others use. */
  #share: number
  /** Probe slots still unanswered; undefined once the limiter has learned whether others share the account. */
  #probe: { pending: number; sent: number; remainingMin: number; informed: boolean } | undefined
  #period = { start: -Infinity, remainingMin: Infinity, limited: false }
  /** The last cut of the share after a 429: when, and how low one window's cuts may go. */
  #cut = { at: -Infinity, floor: 1 }
  #wake!: { promise: Promise<void>; resolve: () => void }

  constructor(options: RateLimiterOptions = {}) {
    const perSecond = options.perSecond ?? 10
    const margin = options.marginMs ?? 25
    if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`perSecond must be a positive integer, got ${perSecond}`)
    if (!Number.isFinite(margin) || margin < 0) throw new RangeError(`marginMs must be a non-negative number, got ${margin}`)
    this.perSecond = perSecond
    this.windowMs = 1000 + margin
    this.#now = options.now ?? (() => performance.now())
    this.#random = options.random ?? Math.random
    this.#limit = perSecond
    this.#share = perSecond
    this.#startProbe()
    this.#rearm()
  }

  /** Requests this limiter currently lets through per window (at most `perSecond`), learned from the service's answers. */
  get share(): number {
    return this.#share
  }

  #rearm(): void {
    let resolve!: () => void
    const promise = new Promise<void>((r) => (resolve = r))
    this.#wake = { promise, resolve }
  }

  // Waiters sleep until the slot they wait for frees; a larger share may free one earlier.
  #wakeWaiters(): void {
    const { resolve } = this.#wake
    this.#rearm()
    resolve()
  }

  // Until the first answers say whether anyone else uses the account, half a window: limiters
  // starting together then fill the window between them instead of drawing 429s.
  #startProbe(): void {
    this.#probe = { pending: 0, sent: 0, remainingMin: Infinity, informed: false }
    this.#share = Math.max(1, Math.ceil(this.#limit / 2))
  }

  #setShare(share: number): void {
    const next = Math.max(1, Math.min(this.#limit, Math.round(share)))
    const grew = next > this.#share
    this.#share = next
    if (grew) this.#wakeWaiters()
  }

  // When a finished slot may be reused; undefined while its request is still in flight.
  #freeAt(slot: Slot): number | undefined {
    if (slot.completed === undefined) return undefined
    const arrival = slot.cold ? slot.completed : Math.max(slot.sent, slot.completed - this.#minRoundTrip)
    return arrival + this.windowMs
  }

  /** The slot the next request must wait for, if the window is full. */
  #blocking(): Slot | undefined {
    return this.#slots.length < this.#share ? undefined : this.#slots[this.#slots.length - this.#share]
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
        const wake = this.#wake.promise
        if (wait === Infinity) await abortable(Promise.race([this.#blocking()!.finished, wake]), signal)
        else await wakeableSleep(wait, wake, signal)
      }
      return this.#take()
    })
    // The next caller waits for this one to finish, whether it got its slot or gave up.
    this.#queue = turn.then(() => {}, () => {})
    return turn
  }

  #take(): ReleaseSlot {
    const sent = this.#now()
    if (sent - this.#lastSent > IDLE_MS) {
      this.#warm = 0
      // Who else uses the account may have changed meanwhile: learn it again.
      if (this.#probe === undefined) this.#startProbe()
    }
    this.#lastSent = sent
    let finish!: () => void
    const finished = new Promise<void>((resolve) => (finish = resolve))
    const probe = this.#probe !== undefined
    if (this.#probe) {
      this.#probe.pending++
      this.#probe.sent++
    }
    const slot: Slot = { sent, cold: this.#warm++ < this.perSecond, probe, finished, finish }
    this.#slots.push(slot)
    if (this.#slots.length > this.perSecond) this.#slots.shift()
    return (answer) => {
      if (slot.completed !== undefined) return
      slot.completed = this.#now()
      this.#minRoundTrip = Math.min(this.#minRoundTrip, slot.completed - slot.sent)
      if (answer) this.#learn(slot, answer)
      if (slot.probe && this.#probe) this.#endProbeSlot()
      slot.finish()
    }
  }

  #learn(slot: Slot, answer: SlotAnswer): void {
    const limit = header(answer.headers, 'ratelimit-limit')
    if (limit !== undefined && Number.isInteger(limit) && limit >= 1 && limit < this.#limit) {
      this.#limit = limit
      this.#setShare(this.#share)
    }
    const now = this.#now()
    if (answer.status === 429) {
      slot.limited = true
      this.#period.limited = true
      // Keep to what got through in the last window (requests in flight may yet), but at most halve
      // the share of the window's start: one full window must not starve this limiter.
      const first = now - this.#cut.at > this.windowMs
      if (first) this.#cut = { at: now, floor: Math.max(1, Math.floor(this.#share / 2)) }
      const through = this.#slots.filter((s) => s.sent > now - this.windowMs && !s.limited).length
      this.#setShare(Math.max(this.#cut.floor, Math.min(first ? this.#share - 1 : this.#share, through)))
      const waitMs = (header(answer.headers, 'retry-after') ?? header(answer.headers, 'ratelimit-reset') ?? 1) * 1000
      this.pause(waitMs * (1 + PAUSE_JITTER * this.#random()))
      return
    }
    const remaining = header(answer.headers, 'ratelimit-remaining')
    if (answer.status < 200 || answer.status >= 300 || remaining === undefined) return
    if (this.#probe) {
      // The probe's requests left together, so all of them were in the account's window: what the
      // window held beyond them is others' (the service's clock and ours need not agree on more).
      this.#probe.informed = true
      this.#probe.remainingMin = Math.min(this.#probe.remainingMin, remaining)
      return
    }
    const period = this.#period
    period.remainingMin = Math.min(period.remainingMin, remaining)
    if (now - period.start < this.windowMs) return
    // A whole window in which every answer left room and none was a 429: others leave some unused.
    // Take half of it, as the others may take the other half.
    if (!period.limited && period.remainingMin > 0) this.#setShare(this.#share + Math.ceil(period.remainingMin / 2))
    this.#period = { start: now, remainingMin: Infinity, limited: false }
  }

  #endProbeSlot(): void {
    const probe = this.#probe!
    if (--probe.pending > 0) return
    this.#probe = undefined
    this.#period = { start: this.#now(), remainingMin: Infinity, limited: false }
    // A 429 during the probe has set the share already; otherwise keep to what others leave.
    if (this.#slots.some((s) => s.probe && s.limited)) return
    const others = probe.informed ? Math.max(0, this.#limit - probe.remainingMin - probe.sent) : 0
    this.#setShare(this.#limit - others)
  }

  /** Holds every request back for `ms` from now, e.g. the `Retry-After` of a 429. */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + ms)
  }
}

/** Sleeps `ms`, or less when `wake` settles first. */
function wakeableSleep(ms: number, wake: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  return abortable(Promise.race([timed, wake]), signal).finally(() => clearTimeout(timer))
}
