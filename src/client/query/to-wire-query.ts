import type { EndpointName } from '../../contract/index.js'
import { QUERY_FIELDS, checkWireQuery } from '../../contract/wire-query-check.js'
import { InvalidParamsError } from '../../errors/index.js'
import type { ValidationIssue } from '../../schemas/index.js'

// One DateInput for the SDK and the reference service.
export type { DateInput } from '../../contract/index.js'

const TIME_PARAMS = new Set(['start', 'end'])

function timeToWire(name: string, value: unknown): string | ValidationIssue {
  if (typeof value === 'string') return value
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Number.NaN
  if (Number.isFinite(ms) && Math.abs(ms) <= 8.64e15) return new Date(ms).toISOString()
  const error = value instanceof Date ? 'invalid Date' : typeof value === 'number' ? 'not a finite epoch millisecond value' : `expected a Date, epoch milliseconds or an ISO 8601 string, got ${typeof value}`
  return { type: 'datetime_from_date_parsing', loc: ['query', name], msg: `Input should be a valid datetime or date, ${error}`, input: value instanceof Date ? String(value) : value, ctx: { error } }
}

/**
 * Turns typed parameters into the wire query and checks them with the service's own 422 rules,
 * so a bad call fails here, with the same issues, before anything is sent.
 */
export function toWireQuery(endpoint: EndpointName, params: object | undefined): Record<string, string> {
  const wire: Record<string, string> = {}
  const issues: ValidationIssue[] = []
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue
    if (TIME_PARAMS.has(name)) {
      const converted = timeToWire(name, value)
      if (typeof converted === 'string') wire[name] = converted
      else issues.push(converted)
    } else if (typeof value === 'string' || typeof value === 'number') {
      wire[name] = String(value)
    } else {
      issues.push({ type: 'string_type', loc: ['query', name], msg: 'Input should be a valid string or number', input: value })
    }
  }
  // The service's rules without zod in the client bundle (the same issues as its zod query schemas).
  issues.push(...checkWireQuery(endpoint, wire))
  if (issues.length > 0) throw new InvalidParamsError(endpoint, issues)
  // Only the parameters the endpoint knows are sent.
  const known = Object.keys(QUERY_FIELDS[endpoint])
  return Object.fromEntries(Object.entries(wire).filter(([name]) => known.includes(name)))
}
