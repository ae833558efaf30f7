import * as z from 'zod/mini'
import type { Interval } from '../schemas/values/interval.js'
import type { EndpointName } from './endpoints.js'
import type { Method } from '../schemas/values/method.js'
import { optionalParam, requiredParam } from './query-param.js'
import { datetime, limit, text } from './query-values.js'
import { START_AFTER_END } from './wire-query-check.js'

/*
 * The wire queries of the six endpoints: from raw query strings to typed values, with every
 * rule of the service's 422 (contract: error-bodies, order-of-checks). The reference service parses requests with them
 * and the SDK checks its parameters with them before sending, so both report the same issues.
 */

const interval = requiredParam(text<Interval>)
const method = optionalParam(text<Method>)

const startBeforeEnd = z.refine<{ start?: number | undefined; end?: number | undefined }>(
  (q: { start?: number | undefined; end?: number | undefined }) =>
    q.start === undefined || q.end === undefined || q.start <= q.end,
  { message: START_AFTER_END.msg, path: ['end'], params: { type: START_AFTER_END.type, ctx: { ...START_AFTER_END.ctx } } },
)

/** `GET /v1/exchanges` takes no parameters. */
export const exchangesQuerySchema = z.object({})

/** `GET /v1/assets` takes no parameters. */
export const assetsQuerySchema = z.object({})

/** `GET /v1/exchange_pairs`. */
export const exchangePairsQuerySchema = z.object({
  exchange: requiredParam(text),
  interval,
})

/** `GET /v1/aggregated_pairs`; without `method`, all methods are unioned. */
export const aggregatedPairsQuerySchema = z.object({
  interval,
  method,
})

/** `GET /v1/exchange_ohlcv`; `start`/`end` come out as epoch milliseconds. */
export const exchangeOhlcvQuerySchema = z
  .object({
    exchange: requiredParam(text),
    interval,
    base: requiredParam(text),
    quote: requiredParam(text),
    start: optionalParam(datetime),
    end: optionalParam(datetime),
    limit: optionalParam(limit),
  })
  .check(startBeforeEnd)

/** `GET /v1/aggregated_ohlcv`; `start`/`end` come out as epoch milliseconds. */
export const aggregatedOhlcvQuerySchema = z
  .object({
    interval,
    base: requiredParam(text),
    quote: requiredParam(text),
    method,
    start: optionalParam(datetime),
    end: optionalParam(datetime),
    limit: optionalParam(limit),
  })
  .check(startBeforeEnd)

/** Parsed query of `GET /v1/exchange_pairs`. */
export type ExchangePairsQuery = z.output<typeof exchangePairsQuerySchema>
/** Parsed query of `GET /v1/aggregated_pairs`. */
export type AggregatedPairsQuery = z.output<typeof aggregatedPairsQuerySchema>
/** Parsed query of `GET /v1/exchange_ohlcv`. */
export type ExchangeOhlcvQuery = z.output<typeof exchangeOhlcvQuerySchema>
/** Parsed query of `GET /v1/aggregated_ohlcv`. */
export type AggregatedOhlcvQuery = z.output<typeof aggregatedOhlcvQuerySchema>

/** The query schema of each endpoint, as the reference service reads its query. */
export const querySchemas = {
  exchanges: exchangesQuerySchema,
  assets: assetsQuerySchema,
  exchange_pairs: exchangePairsQuerySchema,
  aggregated_pairs: aggregatedPairsQuerySchema,
  exchange_ohlcv: exchangeOhlcvQuerySchema,
  aggregated_ohlcv: aggregatedOhlcvQuerySchema,
} as const satisfies Record<EndpointName, z.ZodMiniType>
