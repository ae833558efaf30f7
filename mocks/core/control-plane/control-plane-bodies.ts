import * as z from 'zod/mini'
import { parseDateTime } from '../../../src/contract/index.js'
import { MAX_CLOCK_RATE } from '../state/clock.js'

/**
 * The body of `POST /_mock/clock`: set the clock at `now`, or move it by `advance_ms` (at most one
 * of the two), and/or run it at `rate` times wall speed.
 */
export const clockUpdateSchema = z
  .strictObject({
    /** An ISO 8601 datetime, read like the `start` parameter. */
    now: z.optional(
      z.string().check(z.refine((text) => parseDateTime(text).ok, { error: 'Input should be a valid datetime or date', params: { type: 'datetime_from_date_parsing' } })),
    ),
    /** Milliseconds to move the clock by; negative moves it back. */
    advance_ms: z.optional(z.number().check(z.refine(Number.isFinite, { error: 'must be a finite number' }))),
    /** Clock milliseconds per wall millisecond from then on: 1 wall speed, 60 a minute per second, 0 fixed. */
    rate: z.optional(z.number().check(z.gte(0), z.lte(MAX_CLOCK_RATE))),
  })
  .check(
    z.refine((body) => !(body.now !== undefined && body.advance_ms !== undefined), { error: 'give at most one of "now" and "advance_ms"' }),
    z.refine((body) => body.now !== undefined || body.advance_ms !== undefined || body.rate !== undefined, {
      error: 'give "now", "advance_ms" or "rate"',
    }),
  )
/** The body of `POST /_mock/clock`. */
export type ClockUpdate = z.infer<typeof clockUpdateSchema>
