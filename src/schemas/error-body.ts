import * as z from 'zod/mini'

/** One issue of a 422 body (the FastAPI / pydantic v2 convention). */
export const validationIssueSchema = z.object({
  /** `missing`, `int_parsing`, `greater_than_equal`, `less_than_equal`, `datetime_from_date_parsing`, `value_error`. */
  type: z.string(),
  /** Where the bad value is, e.g. `["query", "limit"]`. */
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  /** The raw value as received, or `null` when it was missing. */
  input: z.unknown(),
  /** The bound that applies, e.g. `{ "ge": 1 }`. */
  ctx: z.optional(z.record(z.string(), z.unknown())),
})
/** One issue of a 422 body. */
export type ValidationIssue = z.infer<typeof validationIssueSchema>

/** The body of a 422 response. */
export const validationErrorBodySchema = z.object({ detail: z.array(validationIssueSchema) })
/** The body of a 422 response. */
export type ValidationErrorBody = z.infer<typeof validationErrorBodySchema>

/** The body of every other error response: one human-readable string naming the offending value. */
export const errorBodySchema = z.object({ detail: z.string() })
/** The body of every non-422 error response. */
export type ErrorBody = z.infer<typeof errorBodySchema>
