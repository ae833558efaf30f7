/** What measurement 3c walks, shared by the bench and its child process. */

export const MEMORY_CANDLES = 10_000_000
/** 1m candles from here on: BTC/USD on bitstamp is listed from 2015-01-01. */
export const MEMORY_START_MS = Date.UTC(2015, 0, 2)
/**
 * The service clock of 3c. 10,000,000 minutes from 2015-01-02 reach into 2034, past the bench's
 * usual 2026-01-01 (which holds only ~5.78 M 1m candles of the pair): the procedural dataset goes
 * on up to the clock, so the clock moves out instead of the count coming down.
 */
export const MEMORY_NOW = '2036-01-01T00:00:00Z'
/** Pages walked before the baseline RSS is taken. */
export const WARMUP_PAGES = 20
export const SAMPLE_MS = 100
/**
 * Steady state: at 10 M candles, RSS and the live heap (after a forced full GC) may exceed their value
 * at 1 M by at most FLAT_PERCENT % or FLAT_MB MB, whichever is larger. RSS holds what V8 has
 * committed, which moves by tens of MB with its heap sizing while nothing is kept; anything the walk
 * kept per candle would grow with the 9 M candles between the two points: 20 MB is 2.3 bytes per
 * candle, far below any object a retained candle or page costs (a candle object is ~200 bytes).
 */
export const FLAT_PERCENT = 10
export const FLAT_MB = 20

/**
 * `as-specified`: the in-process adapter as the brief gives it (the event loop never turns during
 * the walk); `yielding`: one event-loop turn per request, as over a socket (see in-process-fetch.ts).
 */
export type AdapterMode = 'as-specified' | 'yielding'

/** What the child prints, as JSON, after `result `. */
export interface MemoryWalkResult {
  mode: AdapterMode
  now: string
  start: string
  end: string
  candles: number
  /** Candle requests answered (more than candles / 1000 where windows hold an outage). */
  pages: number
  strictlyAscending: boolean
  baselineMb: number
  peakMb: number
  growthMb: number
  peakAtCandle: number
  /** V8's committed heap at the baseline. */
  baselineHeapMb: number
  /** V8's heap when RSS peaked: committed (total), in use (live + garbage not yet collected), outside the heap. */
  peakHeap: { totalMb: number; usedMb: number; externalMb: number }
  finalRssMb: number
  samples: number
  /** How often the SAMPLE_MS interval timer fired: 0 when the walk never let the event loop turn. */
  timerTicks: number
  /**
   * Per million candles: the highest RSS and the lowest heapUsed sampled in that million, then RSS
   * and heapUsed right after a forced full GC at its end (heapUsed is then the live heap).
   */
  timeline: { candles: number; rssMaxMb: number; heapFloorMb: number; rssAfterGcMb: number; liveHeapMb: number }[]
  /** Time to the baseline (the warm-up pages). */
  warmupMs: number
  /** The whole walk, warm-up included. */
  wallMs: number
  /** This child's CPU after the warm-up. */
  cpuMs: number
}
