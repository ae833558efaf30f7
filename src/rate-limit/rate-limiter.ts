import { abortable } from '../internal/abort.js'
import { answerHeader as header } from './answer-header.js'
import { MemorySlotStore } from './memory-slot-store.js'
import { TrialTurns } from './trial-turns.js'
import type { ReleaseSlot, SlotAnswer, SlotLimiter } from './slot-limiter.js'
import { blockingSlot, windowDelay, type WindowSlot } from './slot-window.js'
import { IDLE_MS, WindowLength } from './window-length.js'

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed in any one-second window: the account's rate. @default 10 */
  perSecond?: number
  /**
   * Extra milliseconds added to the one-second window, against timing jitter: a fixed number, or
   * leave it out to follow the network (twice the spread of the latest round trips, their median less
   * the fastest, from 5 to 100 ms; 25 until 8 round trips are known).
   * @default adaptive
   */
  marginMs?: number
  /**
   * Clock in milliseconds; tests may inject one. Without `RateLimit-*` headers it is also the wall
   * clock that times trial turns, which must be the same for every client of the account.
   * @default performance.now (turns: Date.now)
   */
  now?: () => number
  /** Random numbers in [0, 1) for the jitter of a long `Retry-After`; tests may inject one. @default Math.random */
  random?: () => number
}

/** A slot of the shared window policy (its `cold`: first requests after start or an idle spell travel on new connections, their delay unknown), with what the header learning keeps of it. */
interface Slot extends WindowSlot {
  /** Its place among the probe's requests (0, 1, ...; sent while learning whether the account is shared), or -1 after the probe. */
  readonly probe: number
  /** Answered 429: the service did not count it. */
  limited?: boolean
  /** Sent beyond the share, to learn whether the account has room (no `RateLimit-*` headers: see RoomTrials). */
  readonly trial: boolean
  readonly finished: Promise<void>
  finish(): void
}

/** Share of a 429's wait added at random, so clients that met one 429 do not all resume together. */
const PAUSE_JITTER = 0.25

/** A window of answers the share is judged on: the least room seen, how many answers, whether any was a 429. */
function newPeriod(start: number) {
  return { start, remainingMin: Infinity, answers: 0, limited: false }
}

/**
 * The client-side limit of one account in one process: at most `perSecond` requests reach the
 * service in any one-second window, the sliding window the service counts with (contract:
 * rate-limit). Share one limiter between the clients of one account (e.g. clients with different
 * keys of that account); across processes, share one through Redis (`market-candles/redis`).
 *
 * The service counts a request when it arrives, which the client cannot see; it only knows when the
 * request left and when its answer came back. A slot is therefore held until one second after the
 * request's latest plausible arrival: its completion time less the smallest round trip of the last
 * 2 to 4 seconds (a request cannot have arrived later than that, unless its outbound trip was slower
 * than the fastest one; a path that got slower is timed with its own round trips again). The first
 * window after start or an idle spell counts from completion, because new connections make
 * outbound trips slow and unequal. (This window policy is the one the Redis
 * limiter uses too; here its slots are kept in memory.) A plain token bucket would not do: holding
 * `perSecond` tokens, it lets a full burst through and refills, so up to twice `perSecond`
 * requests land in one sliding second.
 *
 * **Other processes on the same account.** A limiter cannot see requests it did not send, but the
 * service's answers tell it (`RateLimit-Limit`, `RateLimit-Remaining`, `Retry-After`). It keeps to
 * a *share* of the account's rate (at most `perSecond`):
 * - it starts with a quarter of a window, the last of those requests sent after a first answer, and
 *   reads from `RateLimit-Remaining` how many requests others made meanwhile: nobody, and it opens
 *   the whole window; others, and it takes half the room they left (they may take the other half);
 * - a window in which every answer still left room, and none was a 429, raises the share by half
 *   that room (all of it when the room shows nobody else);
 * - a full window of which this limiter holds more than all others together gives one request back
 *   (and takes none for two windows), so a limiter that came later gets room to grow into;
 * - a 429 lowers the share to what got through in the last window (at most halving it per window);
 * - only a window in which the limiter used its whole share counts: a few answers say little about
 *   the room, as they may all have arrived before others' requests of the same second;
 * - a `Retry-After` longer than the window (a quota, a service in trouble) holds every request back
 *   for that long, plus up to a quarter of it at random so limiters do not resume in lockstep.
 * Uncoordinated limiters of one account so settle on the account's rate between them.
 *
 * **A deployment without `RateLimit-*` headers** (a 429 with `Retry-After` only, or with nothing:
 * interface.md leaves both open) says nothing on its 200s about others on the account. The limiter
 * then learns from 429s alone: after its probe it keeps to a share and sends, one at a time, a
 * *trial* request beyond it. A trial answered 200 grows the share by one; a request within the share
 * answered 429 cuts it by one (its place held for the window). Until a first 429 the trials follow one
 * another at once (a limiter alone has the whole window within a second); after it they wait for
 * *turns*, at multiples of 8 s of the wall clock (`Date.now()`, the same for every client): a
 * limiter that won a place in the last turn gives one request back, one that gave a place up
 * trials, smallest share first, one window later (see trial-turns.ts), so the odd places of the
 * window go round (4 clients: 3, 3, 2, 2, then 2, 2, 3, 3) and clients walking as much as each
 * other finish together. At most one refused trial per limiter per turn.
 *
 * @example
 * const limiter = new RateLimiter({ perSecond: 10 })
 * const a = createClient({ apiKey: keyA, rateLimit: limiter })
 * const b = createClient({ apiKey: keyB, rateLimit: limiter }) // same account: one shared limit
 */
export class RateLimiter implements SlotLimiter {
  readonly perSecond: number
  readonly #window: WindowLength
  readonly #now: () => number
  readonly #random: () => number
  /** The last `perSecond` slots, oldest first, the smallest round trip and the pause. */
  readonly #store: MemorySlotStore<Slot>
  #warm = 0
  #lastSent = -Infinity
  #queue: Promise<void> = Promise.resolve()
  /** Callers waiting for a slot. */
  #queued = 0
  /** The account's rate as the service states it (`RateLimit-Limit`), never above `perSecond`. */
  #limit: number
  /** Requests this limiter lets through per window: the account's rate less what others use. */
  #share: number
  /** The probe of a fresh (or idle) limiter; undefined once it has learned whether others use the account. */
  #probe: { size: number; pending: number; sent: number; answered: number; last: number; lastRemaining: number | undefined; limited: boolean } | undefined
  #period = newPeriod(-Infinity)
  /** The last cut of the share after a 429: when, and how low one window's cuts may go. */
  #cut = { at: -Infinity, floor: 1 }
  /** No growth before this time, after giving a request back to others. */
  #holdUntil = -Infinity
  /** Whether the service's 2xx answers carry `RateLimit-Remaining`: 'absent' makes the limiter learn from 429s alone. */
  #headers: 'unknown' | 'present' | 'absent' = 'unknown'
  /** Requests beyond the share, while the answers carry no `RateLimit-*` headers. */
  readonly #trials: TrialTurns
  #wake!: { promise: Promise<void>; resolve: () => void }

  constructor(options: RateLimiterOptions = {}) {
    const perSecond = options.perSecond ?? 10
    if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`perSecond must be a positive integer, got ${perSecond}`)
    this.perSecond = perSecond
    this.#store = new MemorySlotStore(perSecond)
    this.#window = new WindowLength(options.marginMs)
    this.#now = options.now ?? (() => performance.now())
    this.#random = options.random ?? Math.random
    this.#trials = new TrialTurns(options.now ?? Date.now)
    this.#limit = perSecond
    this.#share = perSecond
    this.#startProbe()
    this.#rearm()
  }

  /** The window a slot is held for, in milliseconds: one second plus the margin (see {@link RateLimiterOptions.marginMs}). */
  get windowMs(): number {
    return this.#window.ms
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

  // Until the first answers say whether anyone else uses the account, a quarter of a window:
  // limiters starting together then fit in the window together instead of drawing 429s.
  #startProbe(): void {
    const size = Math.max(1, Math.ceil(this.#limit / 4))
    this.#probe = { size, pending: 0, sent: 0, answered: 0, last: -1, lastRemaining: undefined, limited: false }
    this.#share = size
    this.#trials.reset()
  }

  #setShare(share: number): void {
    const next = Math.max(1, Math.min(this.#limit, Math.round(share)))
    const grew = next > this.#share
    this.#share = next
    if (grew) this.#wakeWaiters()
  }

  /** The slot the next request must wait for, if the window is full. */
  #blocking(): Slot | undefined {
    return blockingSlot(this.#store.slots, this.#share)
  }

  /**
   * Milliseconds until one more request may leave: 0 when it may leave now, `Infinity` while it
   * waits for a request in flight to come back.
   */
  delay(): number {
    const now = this.#now()
    let wait = windowDelay(this.#store, this.#share, this.windowMs, now)
    const probe = this.#probe
    if (probe) return probe.size > 1 && probe.sent === probe.size - 1 && probe.answered === 0 ? Infinity : wait
    if (this.#headers !== 'absent') return wait
    // A turn's start: give a request back (see TrialTurns).
    if (this.#trials.turn(this.#share, this.#limit, this.#store.minRoundTrip) > 0) {
      this.#share--
      wait = windowDelay(this.#store, this.#share, this.windowMs, now)
    }
    if (wait === 0 || !this.#trying()) return wait
    // Without headers the share grows only by trials: one request beyond it, when the trials allow.
    return Math.min(wait, Math.max(this.#trials.wait(this.#share, this.windowMs, this.#limit, this.#store.minRoundTrip), windowDelay(this.#store, this.#share + 1, this.windowMs, now)))
  }

  /** Whether the limiter learns the room by trials: no `RateLimit-*` headers, a share below the limit, no probe. */
  #trying(): boolean {
    return this.#headers === 'absent' && this.#probe === undefined && this.#share < this.#limit
  }

  /**
   * Waits for a slot and takes it; call the returned function when the response arrives. Callers
   * are served in arrival order; an aborted caller leaves the line without taking a slot.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    this.#queued++
    const turn = this.#queue.then(async () => {
      for (let wait = this.delay(); wait > 0; wait = this.delay()) {
        const wake = this.#wake.promise
        if (wait === Infinity) {
          // Waiting for a request in flight, or for the probe's first answer (which wakes waiters).
          const slot = this.#blocking()
          await abortable(Promise.race([slot !== undefined && slot.completed === undefined ? slot.finished : wake, wake]), signal)
        }
        else await wakeableSleep(wait, wake, signal)
      }
      return this.#take()
    })
    turn.then(
      () => this.#queued--,
      () => this.#queued--,
    )
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
    const probe = this.#probe ? this.#probe.sent++ : -1
    if (this.#probe) this.#probe.pending++
    // Taken while the share's slots are all held: only a trial may leave then (see delay).
    const trial = this.#trying() && windowDelay(this.#store, this.#share, this.windowMs, sent) > 0
    if (trial) this.#trials.sent()
    const slot: Slot = { sent, cold: this.#warm++ < this.perSecond, probe, trial, finished, finish }
    this.#store.push(slot)
    return (answer) => {
      if (slot.completed !== undefined) return
      const completed = this.#now()
      this.#store.complete(slot, completed, completed - slot.sent)
      if (!slot.cold) this.#window.sample(completed - slot.sent)
      if (answer) this.#learn(slot, answer)
      else if (slot.trial) this.#trials.lost()
      if (slot.probe >= 0 && this.#probe) this.#endProbeSlot()
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
    const ok = answer.status >= 200 && answer.status < 300
    // A 200 says whether the deployment sends the headers; a 429 only when it has them.
    const stated = header(answer.headers, 'ratelimit-remaining') !== undefined
    if (stated && (ok || answer.status === 429)) this.#headers = 'present'
    else if (ok) this.#headers = 'absent'
    if (slot.trial) {
      if (ok) {
        this.#trials.passed()
        this.#setShare(this.#share + 1)
      } else if (answer.status === 429) {
        this.#trials.refused()
        // The window was full: what this limiter did not hold of it, others did. Holding more than
        // all of them together, it gives one request back, so that one who came later can grow.
        const through = this.#store.slots.filter((s) => s.sent > now - this.windowMs && !s.limited && s !== slot).length
        if (this.#share > this.#limit - through + 1) this.#setShare(this.#share - 1)
      } else this.#trials.lost()
    }
    if (answer.status === 429) {
      slot.limited = true
      if (slot.probe >= 0 && this.#probe) this.#probe.limited = true
      this.#period.limited = true
      // Without headers, a refused trial's place goes back at once (it was beyond the share). A
      // refused request within the share keeps its place for the window: given back at once, the
      // limiter would send again at once into a window still full, a 429 every round trip.
      if (this.#headers !== 'present' && (slot.trial || this.#headers === 'unknown')) this.#store.drop(slot)
      // A refused trial leaves the share as it was: the window was full, as the share assumed.
      if (slot.trial) return this.#pauseFor(answer)
      if (this.#headers !== 'present') {
        // Without headers the only sign is the refusal itself: the window held one request too many
        // (another's trial, most likely). One request less answers it, and no trial until the next
        // turn; what got through says little here, as retries of refused requests may be waiting.
        this.#trials.yielded()
        this.#setShare(this.#share - 1)
        return this.#pauseFor(answer)
      }
      // Keep to what got through in the last window (requests in flight may yet), but at most halve
      // the share of the window's start: one full window must not starve this limiter.
      const first = now - this.#cut.at > this.windowMs
      if (first) this.#cut = { at: now, floor: Math.max(1, Math.floor(this.#share / 2)) }
      const through = this.#store.slots.filter((s) => s.sent > now - this.windowMs && !s.limited).length
      const wanted = Math.min(first ? this.#share - 1 : this.#share, through)
      // Even refused at one request per window, the limiter keeps to one per window: a refusal there
      // mostly means another limiter holds more than its part, and waiting longer (one request per
      // two or four seconds) would only leave that one more of the window.
      this.#setShare(Math.max(this.#cut.floor, wanted))
      // A wait of one window is the sliding second itself, which the cut above answers: pausing
      // everything for it would leave the window to other clients, who grow into it, and the cycle
      // repeats. A longer wait (a quota, a service in trouble) holds every request back, with jitter.
      return this.#pauseFor(answer)
    }
    const remaining = header(answer.headers, 'ratelimit-remaining')
    if (!ok || remaining === undefined) return
    if (this.#probe) {
      // The probe's requests are all in the account's window: what the window held beyond them is
      // others'. The latest one left after a first answer, so others who started with us show in it.
      if (slot.probe > this.#probe.last) [this.#probe.last, this.#probe.lastRemaining] = [slot.probe, remaining]
      return
    }
    const period = this.#period
    period.remainingMin = Math.min(period.remainingMin, remaining)
    period.answers++
    if (now - period.start < this.windowMs) return
    // A window in which this limiter sent less than its share says little about the room: its few
    // requests may all have arrived before others' (who then found the window full). Judge the next.
    if (period.answers < this.#share) {
      this.#period = newPeriod(now)
      return
    }
    // A whole window in which every answer left room and none was a 429. Nobody else at all: take
    // the window. Others: half of the room, as they may take the other half.
    const room = period.remainingMin
    const alone = room >= this.#limit - this.#share
    if (!period.limited && room > 0 && (alone || now >= this.#holdUntil)) {
      this.#setShare(alone ? this.#limit : this.#share + Math.ceil(room / 2))
    } else if (!period.limited && room === 0 && this.#share < this.#limit && this.#share > this.#limit - this.#share + 1) {
      // The window is full and this limiter holds more of it than all the others together: give one
      // request back, and do not take it again for two windows, so a limiter that came later (and
      // cannot see past a full window) gets room to grow into.
      this.#setShare(this.#share - 1)
      this.#holdUntil = now + 2 * this.windowMs
    }
    this.#period = newPeriod(now)
  }

  #endProbeSlot(): void {
    const probe = this.#probe!
    probe.answered++
    // The probe's last request waits for a first answer (see delay): let it go.
    if (probe.answered === 1) this.#wakeWaiters()
    if (--probe.pending > 0 || (probe.sent < probe.size && this.#queued > 0)) return
    this.#probe = undefined
    this.#period = newPeriod(this.#now())
    // Waiters slept until a slot of the probe's share frees (a cold window: a second after the
    // answers); without headers a trial may leave now, so they look again.
    this.#wakeWaiters()
    // A 429 during the probe has set the share already; otherwise keep to what others leave.
    if (probe.limited) return
    // No headers: the answers cannot tell who else uses the account. Trials grow the share from the
    // probe's, one round trip each while they pass: a limiter alone has the whole window within a second.
    if (this.#headers === 'absent') return this.#setShare(probe.sent)
    const own = probe.last + 1
    const others = probe.lastRemaining === undefined ? 0 : Math.max(0, this.#limit - probe.lastRemaining - own)
    // Alone: the whole window. With others: half of the room they left, as they may take it too.
    this.#setShare(others === 0 ? this.#limit : own + Math.ceil((this.#limit - others - own) / 2))
  }

  // A 429's wait longer than the window (a quota, a service in trouble) holds every request back, with jitter.
  #pauseFor(answer: SlotAnswer): void {
    const waitMs = (header(answer.headers, 'retry-after') ?? header(answer.headers, 'ratelimit-reset') ?? 0) * 1000
    if (waitMs > this.windowMs) this.pause(waitMs * (1 + PAUSE_JITTER * this.#random()))
  }

  /** Holds every request back for `ms` from now, e.g. the `Retry-After` of a 429. */
  pause(ms: number): void {
    this.#store.pause(this.#now() + ms)
  }
}

/** Sleeps `ms`, or less when `wake` settles first. */
function wakeableSleep(ms: number, wake: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  return abortable(Promise.race([timed, wake]), signal).finally(() => clearTimeout(timer))
}
