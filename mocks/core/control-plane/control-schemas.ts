import * as z from 'zod/mini'
import { faultSchema } from '../faults/fault-schema.js'
import { journalEntrySchema } from '../journal/journal-entry.js'

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
