import type { ValidationIssue } from '../../../src/schemas/index.js'
import type { MockResponse } from '../message/types.js'
import type { ResolvedVariant } from './service-variant.js'

/** One issue of a 422 as pydantic v1 (FastAPI before 0.100) writes it. */
interface V1Issue {
  loc: (string | number)[]
  msg: string
  type: string
  ctx?: Record<string, unknown>
}

/**
 * An error answer (status >= 400, body `{"detail": ...}`) in the variant's form of error body.
 * `pydantic-v2` is the reference's own: unchanged.
 */
export function writeErrorBody(res: MockResponse, form: ResolvedVariant['errorBodies']): MockResponse {
  if (form === 'pydantic-v2' || res.status < 400) return res
  const detail = (res.body as { detail?: unknown } | null)?.detail
  if (detail === undefined) return res
  const issues = Array.isArray(detail) ? (detail as ValidationIssue[]) : undefined
  switch (form) {
    case 'pydantic-v1':
      return issues ? { ...res, body: { detail: issues.map(v1Issue) } } : res
    case 'detail-string':
      return { ...res, body: { detail: issues ? sentenceOf(issues) : String(detail) } }
    case 'text':
      return { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' }, body: issues ? sentenceOf(issues) : String(detail) }
  }
}

/** A 422's issues as one line: `query.limit: Input should be ...; query.start: ...`. */
function sentenceOf(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')
}

// pydantic v2's types and messages as v1 wrote them, for the checks the service makes.
function v1Issue(issue: ValidationIssue): V1Issue {
  const { loc } = issue
  const ctx = issue.ctx ?? {}
  switch (issue.type) {
    case 'missing':
      return { loc, msg: 'field required', type: 'value_error.missing' }
    case 'int_parsing':
    case 'int_type':
      return { loc, msg: 'value is not a valid integer', type: 'type_error.integer' }
    case 'greater_than_equal':
      return { loc, msg: `ensure this value is greater than or equal to ${String(ctx.ge)}`, type: 'value_error.number.not_ge', ctx: { limit_value: ctx.ge } }
    case 'less_than_equal':
      return { loc, msg: `ensure this value is less than or equal to ${String(ctx.le)}`, type: 'value_error.number.not_le', ctx: { limit_value: ctx.le } }
    case 'datetime_parsing':
    case 'datetime_from_date_parsing':
      return { loc, msg: 'invalid datetime format', type: 'value_error.datetime' }
    case 'string_type':
      return { loc, msg: 'str type expected', type: 'type_error.str' }
    default:
      return { loc, msg: issue.msg.replace(/^Value error, /, ''), type: issue.type.startsWith('value_error') ? issue.type : `value_error.${issue.type}` }
  }
}
