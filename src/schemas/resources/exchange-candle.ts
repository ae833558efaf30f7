import * as z from 'zod/mini'
import { flagSchema } from '../values/flag.js'
// Imported for the declaration emit alone: with OpenEnum in scope, this schema's .d.ts names it from
// its module; without, TypeScript names it through the entry, schemas/index (a type-level cycle
// the .d.ts bundler warns about).
import type { OpenEnum } from '../values/open-enum.js'
import { intervalSchema } from '../values/interval.js'
import { timestampSchema } from '../values/timestamp.js'

/**
 * One raw candle of one exchange (`GET /v1/exchange_ohlcv`).
 * @example
 * // candles you stored yourself, checked before use
 * const candles = stored.map((row) => exchangeCandleSchema.parse(row))
 */
export const exchangeCandleSchema = z.object({
  exchange: z.string(),
  interval: intervalSchema,
  base: z.string(),
  quote: z.string(),
  /** Close time: the end boundary of the candle's interval; the ordering and paging key. */
  close_ts: timestampSchema,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  base_volume: z.number(),
  quote_volume: z.number(),
  source_provider: z.string(),
  source_channel: z.string(),
  /** `null` when the deployment leaves the field out (D13). */
  flag: z._default(flagSchema, null),
})
/** One raw candle of one exchange. */
export type ExchangeCandle = z.infer<typeof exchangeCandleSchema>
