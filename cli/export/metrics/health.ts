import { formatLag } from '../progress/follow-progress.js'
import type { ExportState, SeriesState } from './export-state.js'

/** A series still counts as catching up while it wrote a page this recently (wall ms). */
export const CATCHING_UP_WITHIN_MS = 60_000

/**
 * The lag a live series may have before /healthz fails, in service ms: two intervals and a
 * minute. A follow polls each series once per interval, so its lag runs up to an interval plus the
 * settle delay; twice that means a candle is overdue.
 */
export function maxLagMs(intervalMs: number): number {
  return 2 * intervalMs + 60_000
}

/** What /healthz answers: healthy or not, and why not (one reason a line). */
export interface Health {
  ok: boolean
  reasons: string[]
  /** One line: `ok: 2 series live` or the reasons. */
  summary: string
}

/**
 * Judges the export: healthy while every series is live (lag within {@link maxLagMs}) or catching
 * up (a page written within {@link CATCHING_UP_WITHIN_MS}, or the run younger than that). Unhealthy
 * while the service is failing (an outage), while Redis fails (requests paused), or when a series
 * falls behind with no page coming.
 */
export function judgeHealth(state: ExportState, now = performance.now()): Health {
  const reasons: string[] = []
  const failing = state.outages?.failing
  if (failing) reasons.push(`outage: the service fails (${failing.reason}) for ${formatLag(failing.sinceMs)}`)
  if (state.redisDownSince !== undefined) reasons.push(`Redis fails for ${formatLag(now - state.redisDownSince)}: requests paused`)
  let live = 0
  let catchingUp = 0
  let ended = 0
  if (state.followingSince === undefined) {
    // The history: series are written one after another, so the run as a whole must make progress.
    const since = state.lastWriteAt ?? state.startedAt
    if (now - since > CATCHING_UP_WITHIN_MS) reasons.push(`history: no page written for ${formatLag(now - since)}`)
    const ok = reasons.length === 0
    return { ok, reasons, summary: ok ? `ok: writing the history of ${state.series.size} series` : `unhealthy: ${reasons.join('; ')}` }
  }
  for (const series of state.series.values()) {
    if (series.ended !== undefined) {
      ended++
      continue
    }
    const verdict = judgeSeries(state, series, now)
    if (verdict === 'live') live++
    else if (verdict === 'catching-up') catchingUp++
    else reasons.push(verdict)
  }
  const ok = reasons.length === 0
  const parts = [`${live} series live`, ...(catchingUp > 0 ? [`${catchingUp} catching up`] : []), ...(ended > 0 ? [`${ended} ended`] : [])]
  return { ok, reasons, summary: ok ? `ok: ${parts.join(', ')}` : `unhealthy: ${reasons.join('; ')}` }
}

function judgeSeries(state: ExportState, series: SeriesState, now: number): 'live' | 'catching-up' | string {
  const lag = state.lagMs(series)
  if (lag !== undefined && series.intervalMs !== undefined && lag <= maxLagMs(series.intervalMs)) return 'live'
  const since = series.lastWriteAt ?? (state.followingSince ?? state.startedAt)
  if (now - since <= CATCHING_UP_WITHIN_MS) return 'catching-up'
  const behind = lag === undefined ? 'no candle stored yet' : `lag ${formatLag(lag)}${series.intervalMs === undefined ? '' : ` over ${formatLag(maxLagMs(series.intervalMs))}`}`
  return `${series.key}: ${behind}, no page written for ${formatLag(now - since)}`
}
