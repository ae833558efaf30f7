import type { CandleEndpointName } from '../../../src/contract/index.js'
import { describeDuration, formatTimestamp, parseDuration } from '../../../src/contract/index.js'
import type { Plan } from '../../data/accounts.js'

/** A plan's verdict on one candle request: the oldest reachable close_ts, or a 403 detail. */
export type PlanVerdict = { allowed: true; horizon: number } | { allowed: false; detail: string }

/** A plan checks endpoint, interval, then history depth (contract: plans). */
export function checkPlan(plan: Plan, endpoint: CandleEndpointName, interval: string, start: number | undefined, now: number): PlanVerdict {
  const intervals = plan.endpoints[endpoint]
  if (!intervals) return { allowed: false, detail: `Plan '${plan.id}' does not include ${endpoint}` }
  const depth = intervals[interval as keyof typeof intervals]
  if (depth === undefined) {
    return { allowed: false, detail: `Plan '${plan.id}' does not include interval '${interval}' on ${endpoint}` }
  }
  if (depth === null) return { allowed: true, horizon: -Infinity }
  const depthMs = parseDuration(depth)!
  const horizon = now - depthMs
  if (start !== undefined && start < horizon) {
    return {
      allowed: false,
      detail: `start ${formatTimestamp(Math.floor(start / 1000) * 1000)} is older than the history depth of plan '${plan.id}' for ${endpoint} at ${interval}: ${describeDuration(depthMs)} (${depth}); the earliest allowed start is ${formatTimestamp(Math.ceil(horizon / 1000) * 1000)}`,
    }
  }
  return { allowed: true, horizon }
}
