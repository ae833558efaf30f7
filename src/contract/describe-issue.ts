import type * as z from 'zod/mini'

/**
 * One zod issue in words, with its path under `root`: `candles[3].low: expected number, got string`. zod/mini ships no
 * messages of its own (only "Invalid input"), and configuring a locale would change the caller's zod too.
 */
export function describeIssue(issue: z.core.$ZodIssue, root = ''): string {
  const path = (root + issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')).replace(/^\./, '')
  const where = path === '' ? '' : `${path}: `
  const got = (input: unknown) => (input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input)
  switch (issue.code) {
    case 'invalid_type':
      return `${where}expected ${issue.expected}, got ${got(issue.input)}`
    case 'invalid_format':
      return `${where}expected ${issue.format === 'datetime' ? 'an ISO 8601 datetime' : issue.format === 'date' ? 'a YYYY-MM-DD date' : `format ${issue.format}`}, got ${JSON.stringify(issue.input)}`
    case 'too_small':
      return `${where}must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`
    case 'too_big':
      return `${where}must be ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`
    case 'invalid_value':
      return `${where}expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    default:
      return `${where}${issue.message}`
  }
}
