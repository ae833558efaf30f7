import type { PairCoverage } from '../../../src/index.js'
import { APIConnectionError, APIError, AuthenticationError, NotFoundError, PermissionDeniedError } from '../../../src/errors/index.js'
import { depthHint, startFlagValue } from './depth-hint.js'
import { SeriesFailure } from './runner.js'
import { listPairs, seriesLabel, type Series } from '../plan/series.js'
import { formatTimestamp } from '../../../src/contract/close-time.js'
import { plural } from '../../../src/internal/plural.js'


/** What a failure message may draw on. */
export interface FailureContext {
  baseUrl: string
  /** The pairs catalog of the exchange (or the aggregate) at the interval, when it was read. */
  catalog: readonly PairCoverage[] | undefined
  keySource: string
}

/** A clear, one-paragraph message for an error that ends a run (exit 1). Never holds the key. */
export function describeFailure(error: unknown, ctx: FailureContext): string {
  const series = error instanceof SeriesFailure ? error.series : undefined
  const cause = error instanceof SeriesFailure ? error.cause : error
  const where = series ? `${seriesLabel(series)}: ` : ''
  if (cause instanceof AuthenticationError) {
    const missing = cause.detail === 'Not authenticated'
    return missing
      ? `${where}no API key reached the service (401 ${cause.detail}). Set MARKET_CANDLES_API_KEY or give --api-key-file FILE.`
      : `${where}the service refused the API key from ${ctx.keySource} (401 ${cause.detail}). Check that the key is current: a revoked key stays refused.`
  }
  if (cause instanceof PermissionDeniedError) {
    const detail = String(cause.detail ?? '')
    const hint = depthHint(detail, cause.headers)
    if (hint) {
      return `${where}the start lies beyond your plan's history depth (403: ${detail}). The earliest allowed start is ${formatTimestamp(hint.earliest)}; run again with --start ${startFlagValue(hint.suggested)} (or later).`
    }
    return `${where}your plan does not allow this (403: ${detail}).`
  }
  if (cause instanceof NotFoundError) {
    const pairs = ctx.catalog && series ? ` Pairs there at ${series.interval}: ${listPairs(ctx.catalog)}.` : ''
    return `${where}not found (404: ${String(cause.detail ?? '')}).${pairs}`
  }
  if (cause instanceof APIConnectionError) {
    const code = causeCode(cause)
    return `${where}cannot reach the service at ${ctx.baseUrl}${code ? ` (${code})` : ''}: ${cause.message}, retries included.`
  }
  if (cause instanceof APIError) return `${where}the service answered ${cause.status}: ${typeof cause.detail === 'string' ? cause.detail : cause.message}`
  return `${where}${(cause as Error)?.message ?? String(cause)}`
}

/** The system error code (ECONNREFUSED, ENOTFOUND...) somewhere in a cause chain. */
function causeCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Object && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code
  }
  return undefined
}

/** The line under every failure once something may have been written. */
export function keptNote(out: string, written: number): string {
  if (out === '-') return `${plural(written, 'candle')} ${written === 1 ? 'was' : 'were'} written to stdout before the failure.`
  return `Nothing written is lost: ${out} holds every page completed (${plural(written, 'candle')} in this run); the same command continues after the last stored candle of each series.`
}
