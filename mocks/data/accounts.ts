import * as z from 'zod/mini'
import { INTERVALS } from '../../src/schemas/index.js'
import { parseDuration } from '../../src/contract/index.js'

const depth = z.nullable(z.string().check(z.refine((s) => parseDuration(s) !== undefined, 'must be an ISO 8601 duration of weeks, days, hours, minutes or seconds (e.g. P30D, PT6H), or null for unlimited')))
const intervalDepths = z.partialRecord(z.enum(INTERVALS), depth)

/**
 * A plan (contract: plans): per candle endpoint, the intervals it includes and, per interval, how far
 * back `start` may reach as an ISO 8601 duration (`P30D`), or `null` for unlimited. An endpoint or
 * interval left out is not included.
 */
export const planSchema = z.object({
  id: z.string().check(z.minLength(1)),
  endpoints: z.object({
    exchange_ohlcv: z.optional(intervalDepths),
    aggregated_ohlcv: z.optional(intervalDepths),
  }),
})
/** A plan: per candle endpoint, the intervals it includes and their history depth. */
export type Plan = z.infer<typeof planSchema>

/** An account: the unit of billing, usage and rate limit. */
export const accountSchema = z.object({ id: z.string().check(z.minLength(1)), plan: z.string() })
/** An account. */
export type Account = z.infer<typeof accountSchema>

/** An API key of an account; a revoked key answers 401 like an unknown one. */
export const apiKeySchema = z.object({
  key: z.string().check(z.minLength(1)),
  account: z.string(),
  revoked: z.optional(z.boolean()),
})
/** An API key of an account. */
export type ApiKey = z.infer<typeof apiKeySchema>

/** The demo plans: `free`, `pro` and `enterprise`. */
export const demoPlans: Plan[] = [
  { id: 'free', endpoints: { exchange_ohlcv: { '1h': 'P30D', '1d': 'P365D' } } },
  {
    id: 'pro',
    endpoints: {
      exchange_ohlcv: { '1m': 'P90D', '1h': 'P730D', '1d': 'P3650D' },
      aggregated_ohlcv: { '1m': 'P30D', '1h': 'P365D', '1d': 'P1825D' },
    },
  },
  {
    id: 'enterprise',
    endpoints: {
      exchange_ohlcv: { '1m': null, '1h': null, '1d': null },
      aggregated_ohlcv: { '1m': null, '1h': null, '1d': null },
    },
  },
]

/** The demo accounts, one per plan. */
export const demoAccounts: Account[] = [
  { id: 'acct_free', plan: 'free' },
  { id: 'acct_pro', plan: 'pro' },
  { id: 'acct_enterprise', plan: 'enterprise' },
]

/** The demo keys documented in the README. */
export const demoKeys: ApiKey[] = [
  { key: 'demo-free-key', account: 'acct_free' },
  { key: 'demo-pro-key', account: 'acct_pro' },
  { key: 'demo-enterprise-key', account: 'acct_enterprise' },
  { key: 'demo-enterprise-key-2', account: 'acct_enterprise' },
  { key: 'demo-revoked-key', account: 'acct_pro', revoked: true },
]
