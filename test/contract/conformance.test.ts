import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildOpenApiDocument } from '../../src/openapi/index.js'
import { TRANSPORTS, type Transport } from '../support/transports.js'

const doc = buildOpenApiDocument() as any
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema(doc, 'openapi.json')

const deref = (node: any): any => (node?.$ref ? deref(node.$ref.slice(2).split('/').reduce((n: any, k: string) => n[k], doc)) : node)
const validatorOf = (schema: any) => (schema.$ref ? ajv.getSchema(`openapi.json${schema.$ref}`)! : ajv.compile(schema))

/** Checks one response against the document: a documented status, its body schema, its headers. */
function conformance(method: string, path: string, res: { status: number; headers: Headers; body: unknown }): string[] {
  const item = doc.paths[path]
  const spec = method === 'GET' ? deref(item.get.responses[String(res.status)]) : deref(item['x-other-methods'])
  if (!spec || (method !== 'GET' && res.status !== 405)) return [`${method} ${path}: status ${res.status} is not documented`]
  const problems: string[] = []
  if (!res.headers.get('content-type')?.startsWith('application/json')) problems.push(`content-type ${res.headers.get('content-type')}`)
  const validate = validatorOf(spec.content['application/json'].schema)
  if (!validate(res.body)) problems.push(`body: ${ajv.errorsText(validate.errors)}`)
  for (const [name, header] of Object.entries<any>(spec.headers ?? {})) {
    const h = deref(header)
    const raw = res.headers.get(name)
    if (raw === null) {
      if (h.required) problems.push(`header ${name} missing`)
      continue
    }
    // A header is text on the wire; an integer header must be its decimal digits.
    const value = h.schema.type === 'integer' ? (/^-?\d+$/.test(raw) ? Number(raw) : raw) : raw
    const check = validatorOf(h.schema)
    if (!check(value)) problems.push(`header ${name}=${raw}: ${ajv.errorsText(check.errors)}`)
  }
  return problems
}

const PRO = { 'X-API-Key': 'demo-pro-key' }
const FREE = { 'X-API-Key': 'demo-free-key' }
const EX = 'exchange=bitstamp&base=BTC&quote=USD'
const AG = 'base=BTC&quote=USD'

/** [method, path, query, headers, expected status]: valid and invalid requests of every endpoint. */
const REQUESTS: Array<[string, string, string, Record<string, string>, number]> = [
  ['GET', '/v1/exchanges', '', {}, 200],
  ['POST', '/v1/exchanges', '', {}, 405],
  ['GET', '/v1/assets', '', {}, 200],
  ['DELETE', '/v1/assets', '', {}, 405],
  ['GET', '/v1/exchange_pairs', 'exchange=bitstamp&interval=1h', {}, 200],
  ['GET', '/v1/exchange_pairs', 'interval=1h', {}, 422],
  ['GET', '/v1/exchange_pairs', 'exchange=&interval=1h&interval=1d', {}, 422],
  ['GET', '/v1/exchange_pairs', 'exchange=nowhere&interval=1h', {}, 404],
  ['GET', '/v1/exchange_pairs', 'exchange=bitstamp&interval=4h', {}, 404],
  ['PUT', '/v1/exchange_pairs', '', {}, 405],
  ['GET', '/v1/aggregated_pairs', 'interval=1d', {}, 200],
  ['GET', '/v1/aggregated_pairs', 'interval=1d&method=omm_vwap_v1', {}, 200],
  ['GET', '/v1/aggregated_pairs', '', {}, 422],
  ['GET', '/v1/aggregated_pairs', 'interval=1d&method=median', {}, 404],
  ['PATCH', '/v1/aggregated_pairs', '', {}, 405],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&limit=5`, PRO, 200],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&start=2026-05-01T00:00:00Z&end=2026-05-02&limit=1000`, PRO, 200],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&start=2030-01-01T00:00:00Z`, PRO, 200],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h`, {}, 401],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h`, { 'X-API-Key': 'not-a-key' }, 401],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&limit=0`, PRO, 422],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&limit=abc&start=yesterday`, PRO, 422],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&start=2026-05-02&end=2026-05-01`, PRO, 422],
  ['GET', '/v1/exchange_ohlcv', 'interval=1h', PRO, 422],
  ['GET', '/v1/exchange_ohlcv', 'exchange=nowhere&base=BTC&quote=USD&interval=1h', PRO, 404],
  ['GET', '/v1/exchange_ohlcv', 'exchange=bitstamp&base=BTC&quote=XYZ&interval=1h', PRO, 404],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1m`, FREE, 403],
  ['GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&start=2020-01-01`, FREE, 403],
  ['POST', '/v1/exchange_ohlcv', '', PRO, 405],
  ['GET', '/v1/aggregated_ohlcv', `${AG}&interval=1h&limit=5`, PRO, 200],
  ['GET', '/v1/aggregated_ohlcv', `${AG}&interval=1d&method=omm_vwap_v1&start=2025-01-01&limit=3`, PRO, 200],
  ['GET', '/v1/aggregated_ohlcv', `${AG}&interval=1h`, {}, 401],
  ['GET', '/v1/aggregated_ohlcv', `${AG}&interval=1h&limit=1001`, PRO, 422],
  ['GET', '/v1/aggregated_ohlcv', `${AG}&interval=1h&method=median`, PRO, 404],
  ['GET', '/v1/aggregated_ohlcv', `${AG}&interval=1h`, FREE, 403],
  ['DELETE', '/v1/aggregated_ohlcv', '', PRO, 405],
]

describe.each(TRANSPORTS)('responses conform to the OpenAPI document (ajv, JSON Schema 2020-12) via %s', (_name, connect) => {
  let t: Transport
  // A fixed rate-limit clock: every request of a test falls in one window, whatever the machine's speed.
  beforeAll(async () => {
    t = await connect({ now: '2026-06-01T00:00:00Z', rateLimit: { clock: () => 0 } })
  })
  afterAll(() => t.close())
  const send = (method: string, path: string, query: string, headers: Record<string, string>) => t.request(method, `${path}${query ? `?${query}` : ''}`, headers)

  test.each(REQUESTS)('%s %s?%s answers its documented status, body and headers', async (method, path, query, headers, status) => {
    await t.service.reset()
    const res = await send(method, path, query, headers)
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    expect(conformance(method, path, res)).toEqual([])
  })

  test('a 429 (the 11th counted request in one second) carries Retry-After and RateLimit-* as documented', async () => {
    await t.service.reset()
    for (let i = 0; i < 10; i++) expect((await send('GET', '/v1/exchange_ohlcv', `${EX}&interval=1h&limit=1`, PRO)).status).toBe(200)
    const res = await send('GET', '/v1/aggregated_ohlcv', `${AG}&interval=1h&limit=1`, PRO)
    expect(res.status).toBe(429)
    expect(conformance('GET', '/v1/aggregated_ohlcv', res)).toEqual([])
  })

  test('an unknown path answers the documented 404 body', async () => {
    const res = await send('GET', '/v1/nothing', '', {})
    expect(res.status).toBe(404)
    const validate = validatorOf(deref(doc.components.responses.NotFound).content['application/json'].schema)
    expect(validate(res.body), ajv.errorsText(validate.errors)).toBe(true)
  })
})

describe('the conformance check', () => {
  test('the check itself fails on a body, a header or a status the document does not allow', () => {
    const headers = new Headers({ 'content-type': 'application/json', 'ratelimit-limit': '10', 'ratelimit-remaining': '-1' })
    expect(conformance('GET', '/v1/exchange_ohlcv', { status: 200, headers, body: [{ close_ts: 'soon' }] })).toEqual([
      expect.stringMatching(/^body: /),
      'header RateLimit-Remaining=-1: data must be >= 0',
      'header RateLimit-Reset missing',
    ])
    expect(conformance('GET', '/v1/assets', { status: 404, headers, body: { detail: 'x' } })).toEqual(['GET /v1/assets: status 404 is not documented'])
  })
})
