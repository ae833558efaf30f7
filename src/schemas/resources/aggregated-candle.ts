import * as z from 'zod/mini'
import { flagSchema } from '../values/flag.js'
// Imported for the declaration emit alone: with OpenEnum in scope, this schema's .d.ts names it from
// its module; without, TypeScript names it through the entry, schemas/index (a type-level cycle
// the .d.ts bundler warns about).
import type { OpenEnum } from '../values/open-enum.js'
import { intervalSchema } from '../values/interval.js'
import { methodSchema } from '../values/method.js'
import { timestampSchema } from '../values/timestamp.js'

/**
 * One candle of the cross-exchange combined series (`GET /v1/aggregated_ohlcv`).
 * @example
 * const candle = aggregatedCandleSchema.parse(JSON.parse(line)) // one line of a JSON Lines file
 */
export const aggregatedCandleSchema = z.object({
  method: methodSchema,
  interval: intervalSchema,
  base: z.string(),
  quote: z.string(),
  close_ts: timestampSchema,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  base_volume: z.number(),
  quote_volume: z.number(),
  /** The exchanges that contributed to this candle, after outlier exclusion, ascending. */
  exchanges: z.array(z.string()),
  /** `null` when the deployment leaves the field out (D13). */
  flag: z._default(flagSchema, null),
})
/** One candle of the cross-exchange combined series. */
export type AggregatedCandle = z.infer<typeof aggregatedCandleSchema>

