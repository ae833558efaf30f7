import { rawQueryOf } from '../../../src/contract/index.js'
import type { ValidationIssue } from '../../../src/schemas/index.js'
import type { KeyPut, RemoveSelector } from '../../data/arranged-data.js'
import { DataError } from '../../data/data-error.js'
import { dataIssuesToValidation, type IssueSource } from './data-issues.js'
import { notAnArray, notAnObject, parseJsonBody } from './json-body.js'
import { invalid, json } from '../message/respond.js'
import type { ControlRoute } from './control-route.js'
import type { MockService } from '../service/service.js'
import type { MockResponse } from '../message/types.js'

/*
 * The control plane's routes that arrange data (issue "Arrange the world per test"): a thin adapter
 * from JSON bodies and queries to `service.data`, `service.keys.put` and `service.plans`, whose
 * `DataError`s become 422s naming every bad row.
 */

/** Runs a change; a `DataError` becomes a 422 whose issues point into `source`. */
async function change(source: IssueSource, run: () => unknown, answer: (result: unknown) => MockResponse): Promise<MockResponse> {
  let result: unknown
  try {
    result = await run()
  } catch (error) {
    if (!(error instanceof DataError)) throw error
    return invalid(dataIssuesToValidation(error.issues, source))
  }
  return answer(result)
}

const changed = (result: unknown) => json(200, { candles: (result as { candles: number }).candles })
const NO_CONTENT: MockResponse = { status: 204, headers: {}, body: null }

/** A 422 for a path segment that disagrees with the body's field of the same meaning. */
function mismatch(name: string, path: string, field: string, body: Record<string, unknown>): MockResponse | undefined {
  if (body[field] === undefined || body[field] === path) return undefined
  return invalid([{ type: 'value_error', loc: ['path', name], msg: `Value error, the path names '${path}' but the body's ${field} is ${JSON.stringify(body[field])}`, input: path }])
}

/** `PUT /_mock/data/exchanges/NAME`, `/assets/TICKER`, `/_mock/plans/NAME`: one object whose key field may be left to the path. */
function putNamed(field: string, pathName: string, put: (service: MockService, value: never) => unknown) {
  return (service: MockService, text: string, _query: string, _signal: AbortSignal | undefined, param: string) => {
    const parsed = parseJsonBody(text)
    if ('error' in parsed) return parsed.error
    const refused = notAnObject(parsed.value)
    if (refused) return refused
    const body = parsed.value as Record<string, unknown>
    const wrong = mismatch(pathName, param, field, body)
    if (wrong) return wrong
    const value = { [field]: param, ...body }
    return change({ kind: 'object', body: value }, () => put(service, value as never), () => json(200, value))
  }
}

// ---- DELETE /_mock/data/candles?... -------------------------------------------------------------

const REMOVE_PARAMS = new Set(['exchange', 'aggregated', 'method', 'interval', 'base', 'quote', 'from', 'to'])

/** Reads the query of `DELETE /_mock/data/candles` into a selector, or every issue with it. */
export function removeSelectorOf(query: string): { selector: RemoveSelector; raw: Record<string, unknown> } | { issues: ValidationIssue[] } {
  const raw = rawQueryOf(new URLSearchParams(query)) as Record<string, string | string[]>
  const issues: ValidationIssue[] = []
  const one: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (!REMOVE_PARAMS.has(name)) issues.push({ type: 'extra_forbidden', loc: ['query', name], msg: 'Extra inputs are not permitted', input: value })
    else if (Array.isArray(value)) issues.push({ type: 'string_type', loc: ['query', name], msg: 'Input should be a valid string', input: value })
    else one[name] = value
  }
  const aggregated = one.aggregated
  if (aggregated !== undefined && aggregated !== 'true' && aggregated !== 'false') {
    issues.push({ type: 'bool_type', loc: ['query', 'aggregated'], msg: 'Input should be a valid boolean', input: aggregated })
  }
  const isAggregated = aggregated === 'true'
  if (isAggregated && one.exchange !== undefined) {
    issues.push({ type: 'value_error', loc: ['query', 'exchange'], msg: 'Value error, give exchange or aggregated=true, not both', input: one.exchange })
  }
  if (!isAggregated && one.method !== undefined) {
    issues.push({ type: 'value_error', loc: ['query', 'method'], msg: 'Value error, method selects an aggregated series: give it with aggregated=true', input: one.method })
  }
  if (!isAggregated && raw.exchange === undefined) issues.push({ type: 'missing', loc: ['query', 'exchange'], msg: 'Field required', input: null })
  for (const name of ['interval', 'base', 'quote']) if (one[name] === undefined && raw[name] === undefined) issues.push({ type: 'missing', loc: ['query', name], msg: 'Field required', input: null })
  if (issues.length > 0) return { issues }
  // Digits alone are epoch milliseconds; anything else goes to the core as a datetime or date.
  const bound = (text: string | undefined) => (text === undefined ? undefined : /^\d+$/.test(text) ? Number(text) : text)
  const common = { interval: one.interval!, base: one.base!, quote: one.quote!, from: bound(one.from), to: bound(one.to) }
  for (const key of ['from', 'to'] as const) if (common[key] === undefined) delete common[key]
  const selector: RemoveSelector = isAggregated
    ? { ...common, aggregated: true, ...(one.method === undefined ? {} : { method: one.method }) }
    : { ...common, exchange: one.exchange! }
  return { selector, raw: one }
}

// ---- PUT /_mock/keys/KEY ------------------------------------------------------------------------

const KEY_FIELDS = new Set(['key', 'account', 'plan'])

/**
 * `PUT /_mock/keys/KEY` `{"account", "plan"}`. The key is never echoed: not in the answer, not as
 * the `input` of an issue, not in a message (a message that quotes it has it replaced).
 */
async function putKey(service: MockService, text: string, _query: string, _signal: AbortSignal | undefined, key: string): Promise<MockResponse> {
  const parsed = parseJsonBody(text)
  if ('error' in parsed) return parsed.error
  const refused = notAnObject(parsed.value)
  if (refused) return refused
  const body = parsed.value as Record<string, unknown>
  const issues: ValidationIssue[] = []
  for (const name of Object.keys(body)) if (!KEY_FIELDS.has(name)) issues.push({ type: 'extra_forbidden', loc: ['body', name], msg: 'Extra inputs are not permitted', input: body[name] ?? null })
  if (body.key !== undefined && body.key !== key) issues.push({ type: 'value_error', loc: ['path', 'key'], msg: "Value error, the body's key differs from the path's", input: null })
  if (body.account === undefined) issues.push({ type: 'missing', loc: ['body', 'account'], msg: 'Field required', input: null })
  else if (typeof body.account !== 'string') issues.push({ type: 'string_type', loc: ['body', 'account'], msg: 'Input should be a valid string', input: body.account })
  if (body.plan !== undefined && typeof body.plan !== 'string') issues.push({ type: 'string_type', loc: ['body', 'plan'], msg: 'Input should be a valid string', input: body.plan })
  if (issues.length > 0) return invalid(issues)
  const put: KeyPut = { key, account: body.account as string, ...(body.plan === undefined ? {} : { plan: body.plan as string }) }
  const hide = (text: string) => (key === '' ? text : text.replaceAll(key, '<key>'))
  try {
    await service.keys.put(put)
  } catch (error) {
    // Anything else is a bug: rethrown without the key, so the server's log never holds it.
    if (!(error instanceof DataError)) throw new Error(hide((error as Error).message ?? String(error)))
    return invalid(
      dataIssuesToValidation(error.issues, { kind: 'object', body: { account: put.account, plan: put.plan } }).map((issue) =>
        issue.loc[1] === 'key' ? { ...issue, loc: ['path', 'key'], msg: hide(issue.msg), input: null } : { ...issue, msg: hide(issue.msg) },
      ),
    )
  }
  return json(200, { account: put.account, plan: put.plan ?? null })
}

/** The routes with fixed paths. */
export const DATA_ROUTES: Record<string, ControlRoute> = {
  '/_mock/data/candles': {
    POST: (service, text) => {
      const parsed = parseJsonBody(text)
      if ('error' in parsed) return parsed.error
      const refused = notAnArray(parsed.value)
      if (refused) return refused
      const rows = parsed.value as unknown[]
      return change({ kind: 'rows', body: rows }, () => service.data.putCandles(rows as never), changed)
    },
    DELETE: (service, _text, query) => {
      const read = removeSelectorOf(query)
      if ('issues' in read) return invalid(read.issues)
      return change({ kind: 'query', query: read.raw }, () => service.data.removeCandles(read.selector), changed)
    },
  },
  '/_mock/data/generate': {
    POST: (service, text) => {
      const parsed = parseJsonBody(text)
      if ('error' in parsed) return parsed.error
      const refused = notAnObject(parsed.value)
      if (refused) return refused
      return change({ kind: 'object', body: parsed.value }, () => service.data.generate(parsed.value as never), changed)
    },
  },
  '/_mock/data/reset': { POST: (service) => (service.data.reset(), NO_CONTENT) },
  '/_mock/plans': { GET: (service) => json(200, service.plans.list()) },
}

/** The routes whose last segment is a name: `PREFIX` + NAME. */
export const DATA_PARAM_ROUTES: Record<string, ControlRoute> = {
  '/_mock/data/exchanges/': { PUT: putNamed('name', 'name', (s, v) => s.data.putExchange(v)) },
  '/_mock/data/assets/': { PUT: putNamed('ticker', 'ticker', (s, v) => s.data.putAsset(v)) },
  '/_mock/plans/': { PUT: putNamed('id', 'name', (s, v) => s.plans.put(v)) },
  '/_mock/keys/': { PUT: putKey },
}
