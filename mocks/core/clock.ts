import { parseDateTime, type DateInput } from '../../src/contract/index.js'

/**
 * The service's idea of "now" (contract: time; "latest available" is the newest candle with
 * `close_ts <= now`). It follows the system clock until fixed with `set`.
 */
export interface MockClock {
  /** Epoch milliseconds. */
  now(): number
  /** Fixes the clock at `time`. */
  set(time: DateInput): void
  /** Moves the clock; a clock that follows the system clock keeps following it, shifted. */
  advance(ms: number): void
  /** Back to how the clock was created. */
  reset(): void
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

/** A clock fixed at `initial`, or following the system clock when `initial` is omitted. */
export function createClock(initial?: DateInput): MockClock {
  const start = initial === undefined ? undefined : toEpochMs(initial)
  let fixed = start
  let offset = 0
  return {
    now: () => fixed ?? Date.now() + offset,
    set(time) {
      fixed = toEpochMs(time)
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new TypeError(`advance() needs a finite number of ms, got ${ms}`)
      if (fixed === undefined) offset += ms
      else fixed = toEpochMs(fixed + ms)
    },
    reset() {
      fixed = start
      offset = 0
    },
  }
}
