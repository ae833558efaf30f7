import type { PairCoverage } from '../../../src/schemas/index.js'
import { aggregatedPairsQuerySchema, exchangePairsQuerySchema, toValidationIssues, type RawQuery } from '../../../src/contract/index.js'
import type { ServiceContext } from '../state/context.js'
import { invalid, json } from '../message/respond.js'
import { isResponse, resolveExchange, resolveInterval, resolveMethod } from './resolve.js'
import { mapKey } from '../../data/map-key.js'
import { METHOD_IMPLEMENTATIONS } from '../../data/aggregation/method-registry.js'
import { compare } from '../state/compare.js'
import { visibleUntil } from '../state/service-time.js'
import type { MockResponse } from '../message/types.js'

/*
 * The four public catalog endpoints: no key, no plan, never counted (contract: authentication).
 * Arrays are ordered by name, ticker, or base then quote (contract: catalog-order).
 */

export function exchanges(ctx: ServiceContext): MockResponse {
  return json(200, [...ctx.index.store.exchanges].sort((a, b) => compare(a.name, b.name)))
}

export function assets(ctx: ServiceContext): MockResponse {
  return json(200, [...ctx.index.store.assets].sort((a, b) => compare(a.ticker, b.ticker)))
}

export function exchangePairs(ctx: ServiceContext, raw: RawQuery): MockResponse {
  const parsed = exchangePairsQuerySchema.safeParse(raw)
  if (!parsed.success) return invalid(toValidationIssues(parsed.error.issues, raw))
  const { exchange } = parsed.data
  const unknownExchange = resolveExchange(ctx, exchange)
  if (unknownExchange) return unknownExchange
  const interval = resolveInterval(parsed.data.interval)
  if (isResponse(interval)) return interval
  return json(200, ctx.index.coverage(ctx.index.exchangePairs(exchange, interval).values(), visibleUntil(ctx, ctx.clock.now())))
}

export function aggregatedPairs(ctx: ServiceContext, raw: RawQuery): MockResponse {
  const parsed = aggregatedPairsQuerySchema.safeParse(raw)
  if (!parsed.success) return invalid(toValidationIssues(parsed.error.issues, raw))
  const interval = resolveInterval(parsed.data.interval)
  if (isResponse(interval)) return interval
  let methods = Object.keys(METHOD_IMPLEMENTATIONS)
  if (parsed.data.method !== undefined) {
    const method = resolveMethod(parsed.data.method)
    if (isResponse(method)) return method
    methods = [method]
  }
  // Without `method`, all methods are unioned: one entry per pair spanning every method's coverage.
  const now = visibleUntil(ctx, ctx.clock.now())
  const union = new Map<string, PairCoverage>()
  for (const method of methods) {
    for (const entry of ctx.index.coverage(ctx.index.aggregatedPairs(method, interval).values(), now)) {
      const key = mapKey(entry.base, entry.quote)
      const seen = union.get(key)
      union.set(key, seen ? {
        ...seen,
        first_close_ts: seen.first_close_ts < entry.first_close_ts ? seen.first_close_ts : entry.first_close_ts,
        last_close_ts: seen.last_close_ts > entry.last_close_ts ? seen.last_close_ts : entry.last_close_ts,
      } : entry)
    }
  }
  return json(200, [...union.values()].sort((a, b) => compare(a.base, b.base) || compare(a.quote, b.quote)))
}
