import { ClockRegion } from './clock-region.js'
import { roundSpeed } from './clock-speed.js'

/**
 * Local ms after the first answer at which probes measure the clock's speed: the first tells 1
 * from 60 (a Date moves by 0-1 s or by about 18 s), the second tells 60 from 63.
 */
const SPEED_PROBES_MS = [300, 1_000]
/** The readings' spread (service ms) under which no probe narrows it further. */
const PHASE_TARGET_MS = 60
/** Probes that narrow the readings, at most, between two moves of the clock. */
const MAX_PHASE_PROBES = 10
/**
 * The speed is known once the answers allow only speeds in a range this narrow, relative to it
 * (57-63 for 60, from the probe one second in; 0.95-1.05 for 1, after about 20 s): from then on,
 * answers that fit only another speed first mean the clock was moved.
 */
const SPEED_KNOWN = 0.1
/** Local ms between probes of a stopped clock (to see it start again). */
const STOPPED_PROBE_MS = 1000
/** A probe is never planned closer to now than this (local ms): timers are not exact. */
const PROBE_LEAD_MS = 5
/**
 * Local ms after the first answer at which a probe checks the speed assumed (a speed that is off
 * by a little shows only over time): after the phase probes, once at each.
 */
const CHECK_SPANS_MS = [3_000, 30_000]

/**
 * The service's clock as a follow learns it from the `Date` header of the service's answers:
 * where it reads and how fast it runs, so a follow polls at the right moment when the machine's
 * clock is off, the service's clock is shifted, or it runs at another speed (a test service's
 * `serve --clock-rate 60`).
 *
 * `Date` has whole seconds: each answer bounds the clock (see {@link ClockRegion}). The follow
 * assumes a round speed that the answers allow (1 until they say otherwise) and reads the clock
 * in the middle of what they allow at that speed. Answers that no longer fit (the clock was moved,
 * or its speed changed) start the estimate again from the latest one; once the answers have pinned
 * the speed, one that fits only another speed is taken for a move too, until a later answer shows
 * the speed changed (two moves a second apart look like a new speed, 660 for three minutes in 300
 * ms). An answer sent before the estimate's first one is not used: it may be dated before a move.
 * Besides the follow's own requests, it asks for a few probes ({@link probeAt}): 300 ms and 1 s
 * after the first answer (the speed); then each timed so that the service dates it across a second boundary (the phase:
 * each halves the spread, down to about 60 ms plus a round trip); one 3 s and one 30 s after the
 * first answer (a speed a little off shows only over time); every second while the clock seems
 * stopped.
 */
export class DateClock {
  readonly #local: () => number
  #speed: number
  #region: ClockRegion | undefined
  /** Local ms when the first answer of the region arrived, the latest was sent, and its quickest round trip. */
  #firstReceived = 0
  #lastSent = 0
  #lastReceived = 0
  #quickest = Infinity
  #phaseProbes = 0
  /** The next probe's send time once planned: kept until it goes out or an answer comes (a timer that fires late must not push it a second on). */
  #planned: number | undefined
  /** Times the estimate started again (a moved clock): for tests and reports. */
  restarts = 0
  /** The answers pinned the speed assumed (see SPEED_KNOWN): answers that no longer fit it first mean the clock was moved. */
  #speedKnown = false
  /** After an answer that fits the estimate only at another speed: that estimate (cut by it), in case the speed changed rather than the clock moved. */
  #beforeMove: ClockRegion | undefined
  /**
   * How far answers have corrected the estimate so far, in service ms (the reading moved by each
   * answer, summed; an estimate started again adds nothing: the clock itself moved). Offsets after a
   * close measured on the estimate move with it.
   */
  shift = 0

  /**
   * `speed`: service ms per local ms, as the caller knows it (`clockRate`); left out, 1 until the
   * answers say otherwise. A speed given is taken as known: answers that fit only another speed
   * first mean the clock was moved (a test service's clock moved in the follow's first second
   * would otherwise pass for a speed of thousands), until a later answer shows the speed changed.
   */
  constructor(speed?: number, local: () => number = Date.now) {
    this.#speed = speed ?? 1
    this.#speedKnown = speed !== undefined
    this.#local = local
  }

  /** The local clock the estimate is measured against (epoch ms). */
  local(): number {
    return this.#local()
  }

  /** The speed assumed (service ms per local ms): 1 until the answers say otherwise. */
  get speed(): number {
    return this.#speed
  }

  /** Epoch ms of the service's clock, estimated; the local clock until an answer has been seen. */
  now(): number {
    const [low, high] = this.bounds()
    return (low + high) / 2
  }

  /** What the answers allow the service's clock to read now, at the speed assumed: [earliest, latest]. */
  bounds(at: number = this.#local()): [number, number] {
    return this.#region?.readingsAt(this.#speed, at) ?? [at, at]
  }

  /** The width of {@link bounds} (service ms): 0 until an answer has been seen. */
  spread(): number {
    const [low, high] = this.bounds()
    return high - low
  }

  /** Learns from one answer's `Date` header (null or unparseable: ignored), sent at local `sent` and received at local `received`. */
  observe(date: string | null, sent: number, received: number): void {
    const d = date === null ? Number.NaN : Date.parse(date)
    if (!Number.isFinite(d) || !(received >= sent)) return
    this.#planned = undefined
    const region = this.#region
    // An answer sent before the estimate's first one may have been dated before the clock moved (a
    // slow body, a request the old service still answered): it says nothing of the clock as it
    // reads now, and would start the estimate again on the old reading, or fit it at an absurd
    // speed (a Date minutes old, a round trip of a second).
    if (region && sent < region.origin) return
    const before = region ? this.now() : undefined
    const fits = region?.observe(d, sent, received) ?? false
    // While a move is assumed: whether this answer fits the estimate before it, at another speed.
    const changed = this.#beforeMove?.observe(d, sent, received) ? this.#beforeMove : undefined
    this.#beforeMove = undefined
    this.#lastSent = Math.max(this.#lastSent, sent)
    this.#lastReceived = Math.max(this.#lastReceived, received)
    this.#quickest = Math.min(this.#quickest, received - sent)
    if (fits && region!.readingsAt(this.#speed, received)) {
      // A move assumed that this answer bears out, as it does the speed change: still undecided.
      this.#beforeMove = changed
      const [slowest, fastest] = region!.speeds()
      if (fastest - slowest <= SPEED_KNOWN * this.#speed) this.#speedKnown = true
      this.shift += this.now() - before!
      return
    }
    if (fits && !this.#speedKnown) {
      // The speed is still being learnt: the answers say it.
      this.#speed = roundSpeed(...region!.speeds())
      this.shift += this.now() - before!
      return
    }
    if (changed) {
      // The move assumed does not explain this answer; the estimate before it does, at another speed.
      this.#restart(changed, received)
      this.#speed = roundSpeed(...changed.speeds())
      return
    }
    // Not at the speed assumed: the clock moved, or its speed changed. A move is assumed (a test
    // clock is moved far more often than its speed is changed) until a later answer fits the
    // estimate before it, at another speed, and not the move: one that fitted no speed moved for sure.
    this.#beforeMove = fits ? region : undefined
    this.#restart(new ClockRegion(d, sent, received), received)
  }

  /** Starts the estimate again from `region` (the clock moved, or its speed changed): what it learnt before means nothing now. */
  #restart(region: ClockRegion, received: number): void {
    if (this.#region) this.restarts++
    this.#region = region
    this.#firstReceived = received
    this.#quickest = Infinity
    this.#phaseProbes = 0
  }

  /**
   * When (local epoch ms) the next probe should be sent, if one is wanted: any request whose
   * answer has a `Date` header, handed to {@link observe}. Undefined before the first answer and
   * once the estimate is as good as probes make it. The caller sends one probe at a time.
   */
  probeAt(): number | undefined {
    if (!this.#region) return undefined
    this.#planned ??= this.#plan()
    return this.#planned
  }

  #plan(): number | undefined {
    const now = this.#local()
    // The speed first, then the phase, then checks of the speed; a stopped clock is watched for its start.
    const span = this.#lastSent - this.#firstReceived
    const speedProbe = SPEED_PROBES_MS.find((ms) => span < ms)
    if (speedProbe !== undefined) return Math.max(now, this.#firstReceived + speedProbe)
    if (this.#speed === 0) return Math.max(now, this.#lastReceived + STOPPED_PROBE_MS)
    const narrow = this.spread() <= Math.max(PHASE_TARGET_MS, 4 * this.#speed * this.#quickest)
    if (!narrow && this.#phaseProbes < MAX_PHASE_PROBES) return this.#straddling(now)
    const check = CHECK_SPANS_MS.find((ms) => span < ms)
    return check === undefined ? undefined : this.#straddling(Math.max(now, this.#firstReceived + check))
  }

  /**
   * The first send time from `from` (local ms) at which, read at the middle of the bounds, the
   * service dates the probe right at a second's start: its Date then says on which side of the
   * middle the clock is.
   */
  #straddling(from: number): number {
    const halfTrip = this.#quickest / 2
    const [low, high] = this.bounds(from)
    const middle = (low + high) / 2
    const boundary = Math.ceil((middle + this.#speed * (PROBE_LEAD_MS + halfTrip)) / 1000) * 1000
    return from + (boundary - middle) / this.#speed - halfTrip
  }

  /** A probe planned by {@link probeAt} is going out (it counts towards the phase probes of this estimate). */
  probing(): void {
    this.#planned = undefined
    if (this.#lastSent - this.#firstReceived >= SPEED_PROBES_MS.at(-1)! && this.#speed > 0) this.#phaseProbes++
  }
}
