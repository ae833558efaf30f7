import { describeDuration, parseDuration, type CandleEndpointName } from '../../../../src/contract/index.js'
import { demoPlans, type Plan } from '../../../../mocks/data/accounts.js'
import { HOUR, iso } from '../../facts.js'
import type { KeyRef } from '../../keys.js'
import { about, Skip, type Rule, type RuleContext } from '../../rule.js'
import { DECISION, IFACE } from '../../sources.js'

const ENDPOINTS: CandleEndpointName[] = ['exchange_ohlcv', 'aggregated_ohlcv']

/** The plans of docs/contract.md#plans that `--key-file PLAN=FILE` may name. */
export const KNOWN_PLANS: ReadonlyMap<string, Plan> = new Map(demoPlans.map((p) => [p.id, p]))

function plansGiven(ctx: RuleContext): Array<[Plan, KeyRef]> {
  if (ctx.planKeys.size === 0) ctx.skip('no plan keys: give --key-file PLAN=FILE (free, pro, enterprise) for the plan rules')
  return [...ctx.planKeys].map(([plan, key]) => [KNOWN_PLANS.get(plan)!, key])
}

/** The series of each endpoint and interval, or undefined when the catalog has none. */
async function seriesOf(ctx: RuleContext, endpoint: CandleEndpointName, interval: string) {
  try {
    return await ctx.facts.series(endpoint, interval)
  } catch (error) {
    if (error instanceof Skip) return undefined
    throw error
  }
}

/** An endpoint or interval the plan does not include is a 403; one it includes answers. */
export const planAccess: Rule = {
  id: 'plan-access',
  title: 'an endpoint or interval the plan does not include: 403; one it includes: 200',
  anchor: 'plans',
  sources: [IFACE.plan403, DECISION.D1],
  async run(ctx) {
    for (const [plan, key] of plansGiven(ctx)) {
      for (const endpoint of ENDPOINTS) {
        for (const interval of ctx.facts.intervals) {
          const series = await seriesOf(ctx, endpoint, interval)
          if (!series) continue
          const included = plan.endpoints[endpoint]?.[interval] !== undefined
          const a = await ctx.prober.get(`/v1/${endpoint}`, { ...series.params, limit: '1' }, key)
          const detail = (a.body as { detail?: unknown } | undefined)?.detail
          const ok = ctx.check(IFACE.plan403, included ? a.status === 200 : a.status === 403, about(a, `plan ${plan.id} ${included ? 'includes' : 'does not include'} ${endpoint} at ${interval}`, included ? '200' : '403'))
          if (ok && !included) ctx.check(DECISION.D1, typeof detail === 'string', about(a, 'a 403 without a detail string', '403 {"detail": "..."}'))
        }
      }
    }
  },
}

/** A `start` older than now minus the depth is a 403 naming the depth; without start, pages stop at the horizon. */
export const planDepth: Rule = {
  id: 'plan-depth',
  title: "a start older than now minus the plan's depth: 403 naming the depth; without start, pages stop at that horizon instead of failing",
  anchor: 'plans',
  sources: [IFACE.plan403, DECISION.D6],
  async run(ctx) {
    const now = await ctx.facts.now()
    let checked = 0
    for (const [plan, key] of plansGiven(ctx)) {
      for (const endpoint of ENDPOINTS) {
        for (const [interval, depth] of Object.entries(plan.endpoints[endpoint] ?? {})) {
          const series = await seriesOf(ctx, endpoint, interval)
          if (!series) continue
          checked++
          const path = `/v1/${endpoint}`
          if (depth === null) {
            const a = await ctx.prober.get(path, { ...series.params, start: '0001-01-01T00:00:00Z', limit: '1' }, key)
            ctx.check(IFACE.plan403, a.status === 200, about(a, `plan ${plan.id} has unlimited ${endpoint} ${interval} history, yet an old start is refused`, '200'))
            continue
          }
          const depthMs = parseDuration(depth)!
          // The service's now is known to within the newest 1m candle; an hour either side is safe.
          const inside = await ctx.prober.get(path, { ...series.params, start: iso(now - depthMs + HOUR), limit: '1' }, key)
          ctx.check(IFACE.plan403, inside.status === 200, about(inside, `a start within plan ${plan.id}'s ${depth} of ${endpoint} ${interval} is refused`, '200'))
          const outside = await ctx.prober.get(path, { ...series.params, start: iso(now - depthMs - HOUR), limit: '1' }, key)
          const detail = String((outside.body as { detail?: unknown } | undefined)?.detail ?? '')
          if (ctx.check(IFACE.plan403, outside.status === 403, about(outside, `a start older than plan ${plan.id}'s ${depth} of ${endpoint} ${interval} is not refused with 403`, '403'))) {
            ctx.check(DECISION.D6, detail.includes(depth) || detail.includes(describeDuration(depthMs)), about(outside, `the 403 for a start older than plan ${plan.id}'s ${depth} does not name the depth`, `403 whose detail names ${depth}`))
          }
          const clipped = await ctx.prober.get(path, { ...series.params, end: iso(now - depthMs - HOUR), limit: '1' }, key)
          ctx.check(DECISION.D6, clipped.status === 200 && Array.isArray(clipped.body) && clipped.body.length === 0, about(clipped, `without start, a page of plan ${plan.id} reaches past its ${depth} horizon, or fails`, '200 []'))
        }
      }
    }
    if (checked === 0) ctx.skip('the catalog has no series at the intervals of the plans given')
  },
}
