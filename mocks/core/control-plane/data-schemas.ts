import * as z from 'zod/mini'
import { aggregatedCandleSchema, exchangeCandleSchema } from '../../../src/schemas/index.js'

/*
 * The shapes of the data routes' bodies and answers, for the control plane's OpenAPI document.
 * The rules are checked by the core (`service.data`, `keys.put`, `plans.put`), which answers every
 * bad row at once; these schemas describe what it takes.
 */

/** One row of `POST /_mock/data/candles`: an exchange candle, or an aggregated one (`method`, `exchanges`, no `exchange`). */
export const anyCandleSchema = z.union([exchangeCandleSchema, aggregatedCandleSchema])

/** The answer of a change of candles: how many were stored, generated or removed. */
export const dataChangeSchema = z.object({ candles: z.int().check(z.gte(0)) })

const instant = z.union([z.string(), z.number()])

/** The body of `POST /_mock/data/generate`: a procedural series for a pair or range. */
export const generateSpecSchema = z.strictObject({
  exchange: z.string(),
  interval: z.string(),
  base: z.string(),
  quote: z.string(),
  /** First close time (inclusive): ISO datetime or date, or epoch milliseconds. */
  from: instant,
  /** Last close time (inclusive). */
  to: instant,
  seed: z.optional(z.number()),
  price: z.optional(z.number()),
  volatility: z.optional(z.number()),
  volumePerMinute: z.optional(z.number()),
})

/** The body of `PUT /_mock/keys/KEY`: the account the key acts as (created with `plan` when new; moved to `plan` when given). */
export const keyPutBodySchema = z.strictObject({ account: z.string(), plan: z.optional(z.string()) })

/** The answer of `PUT /_mock/keys/KEY`: never the key itself. */
export const keyPutAnswerSchema = z.object({ account: z.string(), plan: z.nullable(z.string()) })
