import type * as z from 'zod/mini'
import {
  API_KEY_HEADER,
  LIMIT,
  aggregatedOhlcvQuerySchema,
  exchangeOhlcvQuerySchema,
  toValidationIssues,
  type CandleEndpointName,
  type RawQuery,
} from '../../../src/contract/index.js'
import { first, type Series } from '../../data/series.js'
import type { ServiceContext } from '../state/context.js'
import { takePage } from './paging.js'
import { checkPlan } from './plan-check.js'
import { fail, invalid, json } from '../message/respond.js'
import { isResponse, resolveExchange, resolveInterval, resolveMethod } from './resolve.js'
import { mapKey } from '../../data/map-key.js'
import { readHeader } from '../message/read-header.js'
import { visibleUntil } from '../state/service-time.js'
import type { HeaderSource, MockResponse, RequestNote } from '../message/types.js'
import { MISSING_KEY_DETAIL } from '../variant/apply-variant.js'

const UNAUTHENTICATED = { 'www-authenticate': 'APIKey' }

interface CandleQuery {
  interval: string
  base: string
  quote: string
  start?: number | undefined
  end?: number | undefined
  limit?: number | undefined
}

/** One candle endpoint: how it parses its query and finds its series. */
interface CandleRoute<Q extends CandleQuery> {
  name: CandleEndpointName
  schema: z.ZodMiniType<Q, unknown>
  resolve(ctx: ServiceContext, query: Q, now: number): Series<unknown> | MockResponse
}

/** Authentication, validation, resolution, plan, rate limit, in this order; only a 200 is counted (contract: order-of-checks). */
async function answer<Q extends CandleQuery>(route: CandleRoute<Q>, ctx: ServiceContext, raw: RawQuery, headers: HeaderSource | undefined, note: RequestNote | undefined): Promise<MockResponse> {
  const key = readHeader(headers, API_KEY_HEADER)?.trim()
  if (!key) return fail(401, MISSING_KEY_DETAIL, UNAUTHENTICATED)
  const accountId = await ctx.keys.accountOf(key)
  const account = accountId === undefined ? undefined : ctx.accounts.get(accountId)
  if (!account) return fail(401, 'Invalid API key', UNAUTHENTICATED)
  if (note) note.account = account.id

  const parsed = route.schema.safeParse(raw)
  if (!parsed.success) return invalid(toValidationIssues(parsed.error.issues, raw))
  const query = parsed.data

  const now = ctx.clock.now()
  // Candles appear once the clock passes their close plus the publish delay; the plan counts from now.
  const visible = visibleUntil(ctx, now)
  const series = route.resolve(ctx, query, visible)
  if (isResponse(series)) return series

  const verdict = checkPlan(ctx.plans.get(account.plan)!, route.name, query.interval, query.start, now)
  if (!verdict.allowed) return fail(403, verdict.detail)

  const rate = ctx.rateWindow?.check(account.id)
  if (rate && !rate.allowed) {
    return fail(429, `Rate limit exceeded: ${ctx.rateWindow!.perSecond} requests per second`, rate.headers)
  }

  const rateHeaders = ctx.rateWindow?.record(account.id) ?? {}
  ctx.usage.set(account.id, (ctx.usage.get(account.id) ?? 0) + 1)
  const page = takePage(series, { start: query.start, end: query.end, limit: query.limit ?? LIMIT.default, now: visible, horizon: verdict.horizon })
  return json(200, page, rateHeaders)
}

/** A series resolves only once it has a candle (a pair listed after `now` has no series yet). */
function hasData<S extends Series<unknown>>(series: S | undefined, now: number): S | undefined {
  return series && first(series.ascending(-Infinity, now)) ? series : undefined
}

const exchangeOhlcvRoute: CandleRoute<z.output<typeof exchangeOhlcvQuerySchema>> = {
  name: 'exchange_ohlcv',
  schema: exchangeOhlcvQuerySchema,
  resolve(ctx, q, now) {
    const unknownExchange = resolveExchange(ctx, q.exchange)
    if (unknownExchange) return unknownExchange
    const interval = resolveInterval(q.interval)
    if (isResponse(interval)) return interval
    return (
      hasData(ctx.index.exchangePairs(q.exchange, interval).get(mapKey(q.base, q.quote)), now) ??
      fail(404, `No candles for ${q.base}/${q.quote} on exchange '${q.exchange}' at interval '${interval}'`)
    )
  },
}

const aggregatedOhlcvRoute: CandleRoute<z.output<typeof aggregatedOhlcvQuerySchema>> = {
  name: 'aggregated_ohlcv',
  schema: aggregatedOhlcvQuerySchema,
  resolve(ctx, q, now) {
    const interval = resolveInterval(q.interval)
    if (isResponse(interval)) return interval
    const method = resolveMethod(q.method)
    if (isResponse(method)) return method
    return (
      hasData(ctx.index.aggregatedPairs(method, interval).get(mapKey(q.base, q.quote)), now) ??
      fail(404, `No aggregated candles for ${q.base}/${q.quote} at interval '${interval}'`)
    )
  },
}

export const exchangeOhlcv = (ctx: ServiceContext, raw: RawQuery, headers?: HeaderSource, note?: RequestNote) => answer(exchangeOhlcvRoute, ctx, raw, headers, note)
export const aggregatedOhlcv = (ctx: ServiceContext, raw: RawQuery, headers?: HeaderSource, note?: RequestNote) => answer(aggregatedOhlcvRoute, ctx, raw, headers, note)
