/*
 * How long after its close a series' candle becomes available (its publish delay), learnt from the
 * follow's own polls; pure functions over a small record. Offsets are service-time ms after the
 * close. A poll that found no candle proves the delay is more than its send offset; one that found
 * it proves the delay is at most its receive offset. The follow asks just after the bracket's low
 * end, narrows a wide bracket candle by candle, and now and then lowers the low end to notice a shorter delay.
 */

/** What a series has learnt of its publish delay. */
export interface PublishDelay {
  /** The delay is more than this (a request found no candle then); 0 at first: never before the close. */
  lo: number
  /** The delay is at most this (a request found the candle by then). */
  hi: number
  /** Candles found at the first try since the last probe. */
  clean: number
  /** Clean candles before the next probe. */
  probeAfter: number
  /** The last round trip of a poll that found its candle: a bracket is never narrower. */
  rtt: number
}

/** Margin over the learnt delay; a bracket narrower than two of it is not bisected further. */
export const PUBLISH_MARGIN_MS = 100
/** First wait after a miss once the candle is later than ever seen, growing 4x: as the fixed settle's backoff. */
const LATE_FIRST_MS = 250
/** Clean candles between two probes in steady state (each probe may cost a request or two). */
const PROBE_EVERY = 60

/** Nothing learnt yet. */
export const unlearnt = (): PublishDelay => ({ lo: 0, hi: Infinity, clean: 0, probeAfter: PROBE_EVERY, rtt: 0 })

/**
 * The width under which a bracket is not bisected further: 300 ms plus a round trip. Each halving
 * costs a miss about every other time, for at most 100 ms of lag less.
 */
const narrow = (d: PublishDelay) => 3 * PUBLISH_MARGIN_MS + d.rtt

/**
 * The same delay in a reading of the service's clock moved by `ms`: offsets learnt on an estimate
 * of that clock (from `Date` headers) move with it when it is corrected. A low end of 0 is no
 * offset learnt but the close itself (never asked before it): it stays.
 */
export function shifted(d: PublishDelay, ms: number): PublishDelay {
  return ms === 0 ? d : { ...d, lo: d.lo > 0 ? Math.max(0, d.lo + ms) : 0, hi: d.hi + ms }
}

/**
 * When to ask first for the next candle, as an offset after its close: a third into a wide bracket
 * (a hit, which costs nothing, then narrows it to a third); in a narrow one, at its high end, where
 * the candle was found (a margin past its low end at least). Not just past the low end: halving
 * leaves it anywhere below the delay, and an ask a few ms after the delay misses on the smallest
 * error of the clock or the timers.
 */
export function firstAsk(d: PublishDelay): number {
  if (d.hi === Infinity) return d.lo + PUBLISH_MARGIN_MS
  return d.hi - d.lo > narrow(d) ? d.lo + (d.hi - d.lo) / 3 : Math.max(d.hi, d.lo + PUBLISH_MARGIN_MS)
}

/**
 * After a poll sent at offset `missed` found no candle: the offset of the next try. Inside a wide
 * bracket, its middle; inside a narrow one, its high end (where the candle was found before); past
 * it (late, or the delay grew), 250 ms later, then 4x as far past each time.
 */
export function retryAsk(d: PublishDelay, missed: number): number {
  if (d.hi !== Infinity && missed < d.hi - narrow(d)) return Math.max(missed + PUBLISH_MARGIN_MS, (missed + d.hi) / 2)
  if (d.hi !== Infinity && missed < d.hi) return Math.max(missed + PUBLISH_MARGIN_MS / 2, d.hi)
  return missed + Math.max(LATE_FIRST_MS, 3 * (missed - (d.hi === Infinity ? 0 : d.hi)))
}

/**
 * Learns from one candle found at receive offset `found`, after misses whose last was sent at
 * offset `missed` (undefined: found at the first try). A miss past the bracket starts it again (the
 * delay grew, or that candle was late) and probes soon after, in case it was one late candle.
 */
export function learn(d: PublishDelay, found: number, missed: number | undefined, rtt: number): PublishDelay {
  if (missed !== undefined) {
    const reset = missed >= d.hi || found <= d.lo
    return reset ? { lo: missed, hi: Math.max(found, missed), clean: 0, probeAfter: 2, rtt } : { lo: Math.max(d.lo, missed), hi: Math.min(d.hi, found), clean: 0, probeAfter: PROBE_EVERY, rtt }
  }
  const hi = Math.min(d.hi, found)
  if (d.clean + 1 < d.probeAfter) return { ...d, hi, clean: d.clean + 1, rtt }
  // A probe: lower the low end; when the next candle is found at the first try too, probe again
  // at once with a larger step (the bracket widened), until a miss says where the delay is.
  const lo = Math.min(d.lo, hi)
  return { lo: Math.max(0, lo - Math.max(2 * PUBLISH_MARGIN_MS, d.probeAfter === 1 ? 2 * (hi - lo) : 0)), hi, clean: 0, probeAfter: 1, rtt }
}
