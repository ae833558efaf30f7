import * as z from 'zod/mini'
import { parseDateTime } from '../../src/contract/index.js'

/**
 * The body of `POST /_mock/clock`: fix the clock at `now`, or move it by `advance_ms`
 * (exactly one of the two).
 */
export const clockUpdateSchema = z
  .strictObject({
    /** An ISO 8601 datetime, read like the `start` parameter. */
    now: z.optional(
      z.string().check(z.refine((text) => parseDateTime(text).ok, { error: 'Input should be a valid datetime or date', params: { type: 'datetime_from_date_parsing' } })),
    ),
    /** Milliseconds to move the clock by; negative moves it back. */
    advance_ms: z.optional(z.number().check(z.refine(Number.isFinite, { error: 'must be a finite number' }))),
  })
  .check(
    z.refine((body) => (body.now === undefined) !== (body.advance_ms === undefined), {
      error: 'give exactly one of "now" and "advance_ms"',
    }),
  )
/** The body of `POST /_mock/clock`. */
export type ClockUpdate = z.infer<typeof clockUpdateSchema>
