import * as z from 'zod/mini'
import { timestampSchema } from '../values/timestamp.js'

/**
 * A pair coverage entry (`GET /v1/exchange_pairs`, `GET /v1/aggregated_pairs`). The timestamps
 * describe actual coverage under the call's filters, not a schedule: the range may have gaps.
 * @example
 * const entries = z.array(pairCoverageSchema).parse(JSON.parse(text)) // with `import * as z from 'zod/mini'`
 */
export const pairCoverageSchema = z.object({
  base: z.string(),
  quote: z.string(),
  /** Earliest `close_ts` of the pair under the call's filters. */
  first_close_ts: timestampSchema,
  /** Latest `close_ts` of the pair under the call's filters. */
  last_close_ts: timestampSchema,
})
/** A pair coverage entry. */
export type PairCoverage = z.infer<typeof pairCoverageSchema>
