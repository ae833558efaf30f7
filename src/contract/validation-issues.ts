import type * as z from 'zod/mini'
import type { ValidationIssue } from '../schemas/error-body.js'
import type { RawParamValue } from './query-param.js'

/** A query as received: each parameter's raw value, an array where it was repeated. */
export type RawQuery = Readonly<Record<string, RawParamValue>>

/**
 * Turns the issues of a query schema into the issues of a 422 body (contract: error-bodies). `input` is always the raw value of the named
 * parameter as received (`null` when it was missing), whatever stage of parsing raised the issue.
 */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[], raw: RawQuery): ValidationIssue[] {
  return issues.map((issue) => {
    const param = String(issue.path[0] ?? '')
    const params = (issue.code === 'custom' ? issue.params : undefined) as
      | { type?: string; ctx?: Record<string, unknown> }
      | undefined
    const result: ValidationIssue = {
      type: params?.type ?? 'value_error',
      loc: ['query', ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: issue.message,
      input: raw[param] ?? null,
    }
    if (params?.ctx) result.ctx = params.ctx
    return result
  })
}

/** Reads a URL's query into a {@link RawQuery}, keeping every value of a repeated parameter. */
export function rawQueryOf(params: URLSearchParams): RawQuery {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of params) {
    const seen = out[key]
    if (seen === undefined) out[key] = value
    else if (Array.isArray(seen)) seen.push(value)
    else out[key] = [seen, value]
  }
  return out
}
