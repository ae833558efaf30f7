import * as z from 'zod/mini'

/**
 * What a parameter parser says: a value, or the 422 issue for the raw input.
 * `type` and `ctx` follow pydantic v2 (contract: error-bodies).
 */
export type ParamResult<T> = { value: T } | { type: string; msg: string; ctx?: Record<string, unknown> }

/** Parameters reach the service as strings; a repeated parameter arrives as several. */
export type RawParamValue = string | readonly string[] | undefined

function parseRaw<T>(input: unknown, ctx: z.core.ParsePayload, parse: (raw: string) => ParamResult<T>): T {
  if (input === undefined) {
    ctx.issues.push({ code: 'custom', input, message: 'Field required', params: { type: 'missing' } })
    return z.NEVER
  }
  if (Array.isArray(input)) {
    // pydantic would silently keep the last value; a second value is more likely a bug to report.
    const error = `expected one value, got ${input.length}`
    ctx.issues.push({ code: 'custom', input, message: `Value error, ${error}`, params: { type: 'value_error', ctx: { error } } })
    return z.NEVER
  }
  if (typeof input !== 'string') {
    ctx.issues.push({ code: 'custom', input, message: 'Input should be a valid string', params: { type: 'string_type' } })
    return z.NEVER
  }
  const result = parse(input)
  if ('value' in result) return result.value
  ctx.issues.push({ code: 'custom', input, message: result.msg, params: { type: result.type, ctx: result.ctx } })
  return z.NEVER
}

/** A required query parameter read from its raw string by `parse`. */
export function requiredParam<T>(parse: (raw: string) => ParamResult<T>) {
  return z.pipe(
    z.unknown(),
    z.transform((input: unknown, ctx) => parseRaw(input, ctx, parse)),
  )
}

/** An optional query parameter: absent is fine, present is read by `parse`. */
export function optionalParam<T>(parse: (raw: string) => ParamResult<T>) {
  return z.optional(requiredParam(parse))
}
