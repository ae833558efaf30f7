import type { RequestMeter } from './request-meter.js'
import { plural } from '../../../src/internal/plural.js'

/** Receives the progress of `export --follow` once the history is written. */
export interface FollowReporter {
  /** One page written: its series' label, how many candles, the newest one's close_ts and the SDK's lag. */
  pageWritten(label: string, candles: number, newestCloseTs: string | undefined, lagMs: number | undefined): void
  /** A series' follow has ended (its exchange closed, or --end was reached). */
  seriesEnded(message: string): void
  /** Stops the display; the follow is over. */
  stop(): void
}

/** What a follow line is made of. */
export interface FollowState {
  following: number
  ended: number
  candles: number
  pages: number
  newest: { label: string; closeTs: string; lagMs: number | undefined } | undefined
  /** Set while the service fails (an outage): for how long, and the last failure. */
  outage?: { sinceMs: number; reason: string } | undefined
}

/** `2.0 s`, `1 m 05 s`: a lag as people read it. */
export function formatLag(ms: number): string {
  const s = Math.max(0, ms) / 1000
  if (s < 60) return `${s.toFixed(1)} s`
  const whole = Math.round(s)
  return whole < 3600 ? `${Math.floor(whole / 60)} m ${String(whole % 60).padStart(2, '0')} s` : `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} m`
}

/** The follow's progress line: series followed, the newest candle and its lag at delivery, totals. */
export function followLine(state: FollowState, meter: RequestMeter): string {
  const ended = state.ended > 0 ? ` (${state.ended} ended)` : ''
  const outage = state.outage === undefined ? '' : `outage for ${formatLag(state.outage.sinceMs)} (${state.outage.reason}), `
  const newest = state.newest === undefined
    ? 'waiting for the next close'
    : `newest candle ${state.newest.closeTs} (${state.newest.label}), lag ${state.newest.lagMs === undefined ? '?' : formatLag(state.newest.lagMs)}`
  return `export: following ${state.following} series${ended}: ${outage}${newest}; ${plural(state.candles, 'new candle')} in ${plural(state.pages, 'page')}, ${plural(meter.requests, 'request')}, ${meter.rateLimited} × 429`
}

/**
 * Prints the follow line every `intervalSeconds` (off a terminal, a new line each time; on one, the
 * line is redrawn in place) and each ended series at once; during an outage the line says so.
 * `quiet` prints nothing.
 */
export function followReporter(options: {
  meter: RequestMeter
  stream: NodeJS.WritableStream
  intervalSeconds: number
  tty: boolean
  quiet: boolean
  series: number
  /** The outage going on, if any (the line says so instead of a stale lag alone). */
  outage?: () => { sinceMs: number; reason: string } | undefined
}): FollowReporter {
  const { meter, stream, tty, quiet } = options
  const state: FollowState = { following: options.series, ended: 0, candles: 0, pages: 0, newest: undefined }
  const print = () => {
    if (quiet) return
    state.outage = options.outage?.()
    const line = followLine(state, meter)
    // A wrapped line could not be redrawn in place: cut it to the terminal's width.
    const columns = (stream as { columns?: number }).columns
    stream.write(tty ? `\r\x1b[2K${columns && line.length >= columns ? `${line.slice(0, columns - 2)}…` : line}` : `${line}\n`)
  }
  // The line changes with each page; once a second is enough to read it on a terminal.
  const timer = setInterval(print, (tty ? 1 : options.intervalSeconds) * 1000)
  timer.unref()
  return {
    pageWritten(label, candles, newestCloseTs, lagMs) {
      state.candles += candles
      state.pages++
      // The newest across series: the one a reader of the store cares about.
      if (newestCloseTs !== undefined && (state.newest === undefined || newestCloseTs >= state.newest.closeTs)) state.newest = { label, closeTs: newestCloseTs, lagMs }
    },
    seriesEnded(message) {
      state.following--
      state.ended++
      if (!quiet) stream.write(`${tty ? '\r\x1b[2K' : ''}export: ${message}\n`)
    },
    stop() {
      clearInterval(timer)
      if (!quiet && tty) stream.write('\n')
    },
  }
}
