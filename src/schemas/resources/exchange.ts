import * as z from 'zod/mini'
import { dateSchema } from '../values/timestamp.js'

/**
 * An exchange, as listed by `GET /v1/exchanges`.
 * @example
 * const result = exchangeSchema.safeParse(record)
 * if (result.success) console.log(result.data.name, result.data.closing_date ?? 'open')
 */
export const exchangeSchema = z.object({
  /** Natural key, used as the `exchange` parameter elsewhere. */
  name: z.string(),
  /** `YYYY-MM-DD`. */
  creation_date: dateSchema,
  /** `YYYY-MM-DD`, or `null` while the exchange has not closed (also when the deployment leaves the field out, D13). */
  closing_date: z._default(z.nullable(dateSchema), null),
})
/** An exchange, as listed by `GET /v1/exchanges`. */
export type Exchange = z.infer<typeof exchangeSchema>
