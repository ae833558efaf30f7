import { formatTimestamp } from '../../../src/contract/close-time.js'

const DAY = 86_400_000
// The fixed-length part of ISO 8601 durations, as plans state history depths (P30D, P1W, PT12H).
const DURATION = /\b(P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?)\b/
const WORDS = /\b(\d+)\s*(week|day|hour|minute|second)s?\b/i
const UNIT_MS: Record<string, number> = { week: 7 * DAY, day: DAY, hour: 3_600_000, minute: 60_000, second: 1000 }

/** The history depth a 403 detail names, in ms: an ISO 8601 duration (P30D) or words (30 days). */
export function depthOf(detail: string): number | undefined {
  const iso = DURATION.exec(detail)
  if (iso && iso[1] !== 'P' && !iso[1]!.endsWith('T')) {
    const [, , w = '0', d = '0', h = '0', m = '0', s = '0'] = iso
    return ((((Number(w) * 7 + Number(d)) * 24 + Number(h)) * 60 + Number(m)) * 60 + Number(s)) * 1000
  }
  const words = WORDS.exec(detail)
  return words ? Number(words[1]) * UNIT_MS[words[2]!.toLowerCase()]! : undefined
}

/**
 * What to tell a user whose `start` lies beyond the plan's history depth: the earliest allowed start
 * (the service's own words when it gives them, else now − depth, with now from the response's Date
 * header, else this machine's clock) and a `--start` to pass, rounded up to the next UTC midnight so it
 * is still allowed when the command runs again (the horizon moves forward with the clock).
 */
export function depthHint(detail: string, headers: Record<string, string>, localNow = Date.now()): { earliest: number; suggested: number } | undefined {
  if (!/history depth|older than/i.test(detail)) return undefined
  let earliest: number | undefined
  const stated = /earliest allowed start is (\S+?)[.;,)]?(?:\s|$)/i.exec(detail)
  if (stated) earliest = Date.parse(stated[1]!)
  if (earliest === undefined || !Number.isFinite(earliest)) {
    const depth = depthOf(detail)
    if (depth === undefined) return undefined
    const served = headers.date === undefined ? Number.NaN : Date.parse(headers.date)
    earliest = Math.ceil(((Number.isFinite(served) ? served : localNow) - depth) / 1000) * 1000
  }
  return { earliest, suggested: Math.ceil((earliest + 60_000) / DAY) * DAY }
}

/** `2024-03-02` for a midnight, else the full timestamp. */
export function startFlagValue(ms: number): string {
  const text = formatTimestamp(ms)
  return text.endsWith('T00:00:00Z') ? text.slice(0, 10) : text
}
