/**
 * How long a round trip counts toward the smallest one the window policy uses: each stays between
 * one and two of these. A path that got slower (another network, a fleet behind a slower proxy on
 * the same account) is then no longer timed with the old path's round trips a few seconds later.
 */
export const ROUND_TRIP_AGE_MS = 2000

/** The smallest round trip of the latest epochs of {@link ROUND_TRIP_AGE_MS}: this one's and the one before. */
export interface AgedMinimum {
  /** Smallest of the current epoch (Infinity: none yet). */
  readonly current: number
  /** Smallest of the epoch before (Infinity: none, or it ended long ago). */
  readonly previous: number
  /** When the current epoch began. */
  readonly since: number
}

export const NO_MINIMUM: AgedMinimum = { current: Infinity, previous: Infinity, since: -Infinity }

/**
 * `state` with a new round trip `value` seen at `now`: an epoch older than ROUND_TRIP_AGE_MS
 * becomes the previous one (dropped when two have passed). The Redis limiter's COMPLETE script does
 * the same in Lua (redis-scripts.ts).
 */
export function withRoundTrip(state: AgedMinimum, value: number, now: number): AgedMinimum {
  const rolled = now - state.since >= ROUND_TRIP_AGE_MS ? { current: Infinity, previous: now - state.since >= 2 * ROUND_TRIP_AGE_MS ? Infinity : state.current, since: now } : state
  return { ...rolled, current: Math.min(rolled.current, value) }
}

/** The smallest round trip still counted. */
export const smallest = (state: AgedMinimum): number => Math.min(state.current, state.previous)
