import * as z from 'zod/mini'
import { faultSchema } from '../faults/fault-schema.js'
import { journalEntrySchema } from '../journal/journal-entry.js'
import { parseDateTime } from '../../../src/contract/index.js'
import { MAX_CLOCK_RATE } from '../state/clock.js'
import { aggregatedCandleSchema, exchangeCandleSchema } from '../../../src/schemas/index.js'

/*
 * The bodies and answers of the control plane (`/_mock/...`) as zod schemas: `clockUpdateSchema`
 * checks a body the control plane reads itself; the others describe, for its OpenAPI document
 * (control-openapi.ts), what the core checks and answers. A fault's body is faults/fault-schema.ts.
 */

/** `GET /_mock/health`. */
export const healthSchema = z.object({ status: z.literal('ok'), sessions: z.int() })

/** `GET /_mock/usage`: counted calls per account id, zeros included. */
export const usageSchema = z.record(z.string(), z.int())

/** `GET /_mock/clock` and the answer of `POST /_mock/clock`: now, and clock ms per wall ms (0: fixed). */
export const clockSchema = z.object({ now: z.string(), rate: z.number() })

/** A queued fault as listed: its fields as given, its id and the requests it still applies to (null: unlimited). */
export const pendingFaultSchema = z.object({ ...faultSchema.def.shape, id: z.string(), times: z.nullable(z.int()) })

/** The answer of `POST /_mock/faults`. */
export const faultIdSchema = z.object({ id: z.string() })

/** The 408 of the wait form of `GET /_mock/requests`: what happened, and the matching requests that did arrive. */
export const waitTimeoutSchema = z.object({ detail: z.string(), requests: z.array(journalEntrySchema) })

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
