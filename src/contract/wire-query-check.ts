/*
 * The wire queries' 422 rules without zod, for the SDK bundle: the same fields, parsers and issues
 * as the zod query schemas in queries.ts, which the reference service parses with.
 * test/schemas/wire-query-check.test.ts checks both give equal issues for any query.
 */
import type { ValidationIssue } from '../schemas/error-body.js'
import type { EndpointName } from './endpoints.js'
import type { ParamResult } from './query-param.js'
import { datetime, limit, text } from './query-values.js'

interface Field {
  required: boolean
  parse: (raw: string) => ParamResult<unknown>
}

const required = (parse: Field['parse']): Field => ({ required: true, parse })
const optional = (parse: Field['parse']): Field => ({ required: false, parse })

const candleWindow = { start: optional(datetime), end: optional(datetime), limit: optional(limit) }

/** Each endpoint's parameters, in the order their issues are listed. */
export const QUERY_FIELDS: Readonly<Record<EndpointName, Readonly<Record<string, Field>>>> = {
  exchanges: {},
  assets: {},
  exchange_pairs: { exchange: required(text), interval: required(text) },
  aggregated_pairs: { interval: required(text), method: optional(text) },
  exchange_ohlcv: { exchange: required(text), interval: required(text), base: required(text), quote: required(text), ...candleWindow },
  aggregated_ohlcv: { interval: required(text), base: required(text), quote: required(text), method: optional(text), ...candleWindow },
}

/** The rule between parameters of both candle endpoints, checked once each parameter is valid. */
export const START_AFTER_END = {
  type: 'value_error',
  msg: 'Value error, start must not be after end',
  ctx: { error: 'start must not be after end' },
} as const

/** The 422 issues of a wire query (one string per parameter); empty when the service accepts it. */
export function checkWireQuery(endpoint: EndpointName, query: Readonly<Record<string, string>>): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const values: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(QUERY_FIELDS[endpoint])) {
    const raw = query[name]
    if (raw === undefined) {
      if (field.required) issues.push({ type: 'missing', loc: ['query', name], msg: 'Field required', input: null })
      continue
    }
    const result = field.parse(raw)
    if ('value' in result) values[name] = result.value
    else issues.push({ type: result.type, loc: ['query', name], msg: result.msg, input: raw, ...(result.ctx ? { ctx: result.ctx } : {}) })
  }
  const { start, end } = values as { start?: number; end?: number }
  if (issues.length === 0 && start !== undefined && end !== undefined && start > end) {
    issues.push({ type: START_AFTER_END.type, loc: ['query', 'end'], msg: START_AFTER_END.msg, input: query.end ?? null, ctx: { ...START_AFTER_END.ctx } })
  }
  return issues
}
