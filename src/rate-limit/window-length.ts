/** The adaptive margin: round trips it is judged on, how many before it departs from the start value, its bounds. */
const MARGIN = { samples: 32, known: 8, start: 25, min: 5, max: 100 }

/** After this long without a request, connections may have closed: the next window is cold again. */
export const IDLE_MS = 4000

/**
 * How long a slot is held after its request's latest plausible arrival: one second plus a margin
 * against timing jitter, fixed or following the network (twice the spread of the latest warm round
 * trips, their median less the fastest, from 5 to 100 ms; 25 until 8 round trips are known).
 */
export class WindowLength {
  #ms: number
  /** The latest warm round trips, for the adaptive margin; undefined when the margin is fixed. */
  readonly #roundTrips: number[] | undefined

  constructor(marginMs: number | undefined) {
    const margin = marginMs ?? MARGIN.start
    if (!Number.isFinite(margin) || margin < 0) throw new RangeError(`marginMs must be a non-negative number, got ${margin}`)
    this.#ms = 1000 + margin
    this.#roundTrips = marginMs === undefined ? [] : undefined
  }

  get ms(): number {
    return this.#ms
  }

  // The margin covers how much later than estimated a request may reach the service: the spread of
  // round trips bounds that (a slower outbound trip makes a slower round trip).
  sample(roundTripMs: number): void {
    const trips = this.#roundTrips
    if (trips === undefined) return
    trips.push(roundTripMs)
    if (trips.length > MARGIN.samples) trips.shift()
    if (trips.length < MARGIN.known) return
    const sorted = [...trips].sort((a, b) => a - b)
    const spread = sorted[sorted.length >> 1]! - sorted[0]!
    this.#ms = 1000 + Math.min(MARGIN.max, Math.max(MARGIN.min, Math.ceil(2 * spread)))
  }
}
