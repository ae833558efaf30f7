import { INTERVAL_MS, isKnownInterval } from '../../../src/schemas/values/known-values.js'
import type { OutageWatch } from '../outage/outage-watch.js'
import type { Series } from '../plan/series.js'
import { seriesKey } from './series-key.js'

/** What the export knows of one series, for metrics and /healthz. */
export interface SeriesState {
  /** `exchange/BASE/QUOTE/interval` (see seriesKey). */
  readonly key: string
  readonly intervalMs: number | undefined
  /** Candles written by this run. */
  written: number
  /** close_ts (epoch ms) of the newest stored candle, once known. */
  newestClose: number | undefined
  /** performance.now() of the last page written. */
  lastWriteAt: number | undefined
  /** Why its follow ended, once it has. */
  ended: string | undefined
}

/**
 * The export's figures, kept as plain numbers whether or not metrics are served (counting costs
 * nothing): candles per series, requests by status, retries, the limiter's wait, outages. The
 * metrics server (metrics-server.ts) reads them at each scrape; /healthz judges them (health.ts).
 */
export class ExportState {
  readonly series = new Map<string, SeriesState>()
  /** Answers by HTTP status, and `error` for attempts that got none (connection error, timeout). */
  readonly requests = new Map<string, number>()
  retries = 0
  /** Total time requests waited for the rate limiter, in ms, and how many waited at all. */
  limiterWaitMs = 0
  limiterWaits = 0
  /** performance.now() when the run started, and when the follow started (undefined before). */
  readonly startedAt = performance.now()
  followingSince: number | undefined
  /** performance.now() of the last page written, any series. */
  lastWriteAt: number | undefined
  /** The service's time (epoch ms) as the follow knows it; undefined until the follow starts. */
  serviceNow: (() => number) | undefined
  /** The follow's status per series (the SDK's seriesStates); undefined until the follow starts. */
  followStatuses: (() => Array<{ key: string; status: string }>) | undefined
  /** Set while Redis fails and requests pause: since when (performance.now()). */
  redisDownSince: number | undefined
  /** Seconds Redis failed, over finished spells. */
  redisDownMs = 0
  outages: OutageWatch | undefined

  /** Registers the series of the run (before any page). */
  plan(list: readonly Series[], lastStored: (s: Series) => number | undefined): void {
    for (const s of list) {
      const key = seriesKey(s)
      if (!this.series.has(key)) this.series.set(key, { key, intervalMs: isKnownInterval(s.interval) ? INTERVAL_MS[s.interval] : undefined, written: 0, newestClose: lastStored(s), lastWriteAt: undefined, ended: undefined })
    }
  }

  /** A page of `series` was written, its newest candle closing at `newestClose`. */
  written(series: Series, candles: number, newestClose: number): void {
    const state = this.series.get(seriesKey(series))
    if (state === undefined) return
    state.written += candles
    if (state.newestClose === undefined || newestClose > state.newestClose) state.newestClose = newestClose
    state.lastWriteAt = this.lastWriteAt = performance.now()
  }

  /** An answer with `status`, or `'error'` for an attempt without one. */
  request(status: number | 'error'): void {
    const key = String(status)
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1)
  }

  /** Service ms since the newest stored close of a series; undefined before the follow or the first candle. */
  lagMs(state: SeriesState): number | undefined {
    if (this.serviceNow === undefined || state.newestClose === undefined) return undefined
    return Math.max(0, this.serviceNow() - state.newestClose)
  }

  /** Seconds Redis has failed so far, the current spell included. */
  redisDownSeconds(): number {
    return (this.redisDownMs + (this.redisDownSince === undefined ? 0 : performance.now() - this.redisDownSince)) / 1000
  }
}
