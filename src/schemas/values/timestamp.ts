import * as z from 'zod/mini'
import { canonicalTimestamp, parseTimestamp, timestampProblem } from '../../contract/close-time.js'

/**
 * An ISO 8601 UTC datetime (interface.md), read in any form a deployment may write it (D13): `Z`
 * or `z`, `+00:00`, `+0000`, `-00:00`, fractional seconds up to 9 digits; a non-zero offset is
 * the instant it denotes. Parsed, it comes out in one canonical form, `2024-05-01T09:01:00Z`
 * (`.sss` only when the milliseconds are not zero), so stored rows and comparisons never depend
 * on the deployment's serializer. Its JSON Schema (the OpenAPI document) is the output: what the
 * reference writes.
 * @example
 * timestampSchema.parse('2024-05-01T09:01:00.000000+00:00') // '2024-05-01T09:01:00Z'
 */
export const timestampSchema = z.codec(
  z.string().check(z.refine((text) => !Number.isNaN(parseTimestamp(text)), { error: (issue) => timestampProblem(issue.input) })),
  z.iso.datetime(),
  { decode: (text) => canonicalTimestamp(text)!, encode: (text) => text },
)

/** A calendar date, `YYYY-MM-DD`. */
export const dateSchema = z.iso.date()
