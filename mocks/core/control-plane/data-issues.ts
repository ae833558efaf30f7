import type { ValidationIssue } from '../../../src/schemas/index.js'
import type { DataIssue } from '../../data/arranged-data.js'

/** Where the checked value came from: a batch (`loc: ["body", INDEX, FIELD]`), one object (`["body", FIELD]`) or the query (`["query", FIELD]`). */
export type IssueSource = { kind: 'rows'; body: readonly unknown[] } | { kind: 'object'; body: unknown } | { kind: 'query'; query: Readonly<Record<string, unknown>> }

/** `exchanges.1` → `['exchanges', 1]`: the path of a field inside a row. */
function fieldPath(field: string | undefined): (string | number)[] {
  if (field === undefined || field === '') return []
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part))
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string | number, unknown>)[key]
  }
  return value
}

/**
 * The issues of a `DataError` as 422 issues in the service's format (contract: error-bodies): one
 * per bad row and rule, each with the row's index (for a batch), the field and the value it holds.
 */
export function dataIssuesToValidation(issues: readonly DataIssue[], source: IssueSource): ValidationIssue[] {
  return issues.map((issue) => {
    const path = fieldPath(issue.field)
    if (source.kind === 'query') {
      return { type: 'value_error', loc: ['query', ...path], msg: `Value error, ${issue.message}`, input: (issue.field === undefined ? null : source.query[issue.field]) ?? null }
    }
    const at = source.kind === 'rows' ? [issue.index, ...path] : path
    const input = valueAt(source.body, at)
    return { type: 'value_error', loc: ['body', ...at], msg: `Value error, ${issue.message}`, input: input === undefined ? null : input }
  })
}
