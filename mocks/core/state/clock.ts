import { parseDateTime, type DateInput } from '../../../src/contract/index.js'

/**
 * The service's idea of "now" (contract: time; "latest available" is the newest candle with
 * `close_ts <= now`). It runs at `rate` times wall speed from where it was last set: 1 follows the
 * system clock, 0 is a fixed clock, 60 makes a `1m` candle close every wall second.
 */
export interface MockClock {
  /** Epoch milliseconds. */
  now(): number
  /** How many clock milliseconds pass per wall millisecond; 0 when fixed. */
  readonly rate: number
  /**
   * Moves the clock to `time`. A clock created with a `rate` runs on from there at that rate; one
   * created without (the system clock, or a fixed `now`) is fixed there.
   */
  set(time: DateInput): void
  /** Runs the clock at `rate` times wall speed from its current reading (0 fixes it). */
  setRate(rate: number): void
  /** Moves the clock; a running clock keeps running, shifted. */
  advance(ms: number): void
  /** Back to how the clock was created: at `now` (or the system time) again, at the first rate. */
  reset(): void
}

/** Options of {@link createClock}. */
export interface ClockOptions {
  /** Where the clock starts. @default the system time */
  now?: DateInput | undefined
  /**
   * Clock milliseconds per wall millisecond: 1 runs at wall speed, 60 runs a minute per second,
   * 0 fixes the clock. @default 1 without `now` (the system clock), 0 with `now` (a fixed clock)
   */
  rate?: number | undefined
  /** The wall clock in epoch ms, for tests of the clock itself. @default Date.now */
  wall?: (() => number) | undefined
}

/** The largest clock rate: a year per wall second is already far past any useful test. */
export const MAX_CLOCK_RATE = 31_536_000

/** Throws a clear error unless `rate` is a usable clock rate. */
export function checkClockRate(rate: unknown): number {
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > MAX_CLOCK_RATE) {
    throw new RangeError(`clock rate must be a number from 0 to ${MAX_CLOCK_RATE}, got ${String(rate)}`)
  }
  return rate
}

/** Epoch milliseconds of a {@link DateInput}; throws a clear error for anything unparseable. */
export function toEpochMs(time: DateInput): number {
  const ms =
    time instanceof Date ? time.getTime() : typeof time === 'number' ? time : (() => {
      const parsed = parseDateTime(time)
      if (!parsed.ok) throw new TypeError(`Invalid time ${JSON.stringify(time)}: ${parsed.reason}`)
      return parsed.ms
    })()
  // 8.64e15 ms is the range of a JavaScript Date; beyond it no timestamp can be written.
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new TypeError(`Invalid time ${String(time)}: not an instant a Date can hold`)
  return ms
}

const isOptions = (value: unknown): value is ClockOptions =>
  typeof value === 'object' && value !== null && !(value instanceof Date)

/**
 * A clock: `createClock()` follows the system clock, `createClock(now)` or `createClock({ now })` is
 * fixed at `now`, `createClock({ now, rate: 60 })` starts at `now` and runs 60 times wall speed.
 * A plain factory with no shared state: one clock per service (or per session).
 *
 * @example
 * const clock = createClock({ now: '2026-01-01T00:00:00Z', rate: 60 })
 * // one wall second later: clock.now() is 2026-01-01T00:01:00Z
 */
export function createClock(options?: DateInput | ClockOptions): MockClock {
  const { now: initial, rate: givenRate, wall = Date.now } = isOptions(options) ? options : { now: options }
  const start = initial === undefined ? undefined : toEpochMs(initial)
  const explicitRate = givenRate === undefined ? undefined : checkClockRate(givenRate)
  const firstRate = explicitRate ?? (start === undefined ? 1 : 0)
  // The clock reads `anchor` at wall time `wallAnchor`, and moves `rate` ms per wall ms from there.
  let anchor = 0
  let wallAnchor = 0
  let rate = firstRate
  let running = explicitRate !== undefined
  const reading = () => anchor + (rate === 0 ? 0 : (wall() - wallAnchor) * rate)
  const moveTo = (ms: number) => {
    anchor = toEpochMs(ms)
    wallAnchor = wall()
  }
  const restart = () => {
    rate = firstRate
    running = explicitRate !== undefined
    moveTo(start ?? wall())
  }
  restart()
  return {
    now: reading,
    get rate() {
      return rate
    },
    set(time) {
      moveTo(toEpochMs(time))
      // Setting the system clock fixes it, as it always has; a clock given a rate keeps running.
      if (!running) rate = 0
    },
    setRate(next) {
      checkClockRate(next)
      moveTo(reading())
      rate = next
      running = true
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new TypeError(`advance() needs a finite number of ms, got ${ms}`)
      moveTo(reading() + ms)
    },
    reset: restart,
  }
}
