import type * as z from 'zod/mini'
import type { ValidationIssue } from '../../../src/schemas/index.js'

// pydantic v2's type names and messages, so a JSON body's 422 reads like a query's (contract: error-bodies).
const TYPE_OF: Record<string, [type: string, msg: string]> = {
  int: ['int_type', 'Input should be a valid integer'],
  number: ['float_type', 'Input should be a valid number'],
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  record: ['dict_type', 'Input should be a valid dictionary'],
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** The issues of a JSON body schema as 422 issues with `loc: ["body", ...]`. */
export function bodyIssues(issues: readonly z.core.$ZodIssue[], body: unknown): ValidationIssue[] {
  return issues.flatMap((issue): ValidationIssue[] => {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)))
    const loc = ['body', ...path]
    const input = valueAt(body, issue.path)
    switch (issue.code) {
      case 'invalid_type': {
        if (input === undefined) return [{ type: 'missing', loc, msg: 'Field required', input: null }]
        const [type, msg] = TYPE_OF[issue.expected] ?? ['value_error', `Input should be ${issue.expected}`]
        return [{ type, loc, msg, input }]
      }
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({ type: 'extra_forbidden', loc: [...loc, key], msg: 'Extra inputs are not permitted', input: valueAt(input, [key]) ?? null }))
      case 'too_small':
        return [{ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${String(issue.minimum)}`, input, ctx: { ge: Number(issue.minimum) } }]
      case 'too_big':
        return [{ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${String(issue.maximum)}`, input, ctx: { le: Number(issue.maximum) } }]
      default: {
        const type = ((issue.code === 'custom' ? issue.params : undefined) as { type?: string } | undefined)?.type ?? 'value_error'
        // pydantic prefixes only its value errors ("Value error, ..."); typed issues carry their own message.
        return [{ type, loc, msg: type === 'value_error' ? `Value error, ${issue.message}` : issue.message, input: input ?? null }]
      }
    }
  })
}
