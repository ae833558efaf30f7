import { compileErrors, validate } from '@readme/openapi-parser'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildControlPlaneOpenApi } from '../../mocks/index.js'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

const doc = buildControlPlaneOpenApi() as any
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema(doc, 'control.json')

/** Checks an answer's status and body against the operation the document gives for it. */
async function conforms(res: Response, path: string, method: string): Promise<string[]> {
  const operation = doc.paths[path]?.[method.toLowerCase()]
  if (!operation) return [`no ${method} ${path} in the document`]
  const described = operation.responses[res.status]
  if (!described) return [`${method} ${path}: status ${res.status} is not described`]
  if (!described.content) return (await res.text()) === '' ? [] : [`${method} ${path}: ${res.status} has a body`]
  const schema = described.content['application/json'].schema
  // An inline schema's $refs point into the document.
  const check = schema.$ref ? ajv.getSchema(`control.json${schema.$ref}`)! : ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"control.json#/components/')))
  return check(await res.json()) ? [] : [`${method} ${path} ${res.status}: ${ajv.errorsText(check.errors)}`]
}

describe('the control plane is described by its own OpenAPI 3.1 document', () => {
  let server: RunningMockServer
  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
  })
  afterAll(() => server.close())

  test('is a valid OpenAPI 3.1 document for @readme/openapi-parser, and GET /_mock/openapi.json serves it', async () => {
    const result = await validate(structuredClone(doc))
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
    expect(await (await fetch(`${server.url}/_mock/openapi.json`)).json()).toEqual(doc)
  })

  test('it is generated from the schemas that check the bodies and queries: every field they take is documented', () => {
    expect(Object.keys(doc.components.schemas.Fault.properties).sort()).toEqual(
      ['path', 'kind', 'status', 'body', 'headers', 'networkError', 'after_bytes', 'bytes_per_second', 'duration_ms', 'latency_ms', 'times', 'after', 'probability', 'seed', 'query', 'account'].sort(),
    )
    expect(doc.components.schemas.Fault.additionalProperties).toBe(false)
    expect(doc.paths['/_mock/requests'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['path', 'status', 'account', 'method', 'since', 'wait_for', 'timeout_ms'])
    expect(Object.keys(doc.components.schemas.ClockUpdate.properties)).toEqual(['now', 'advance_ms', 'rate'])
    expect(Object.keys(doc.components.schemas.GenerateSpec.properties)).toEqual(['exchange', 'interval', 'base', 'quote', 'from', 'to', 'seed', 'price', 'volatility', 'volumePerMinute'])
    expect(Object.keys(doc.components.schemas.KeyPut.properties)).toEqual(['account', 'plan'])
    expect(Object.keys(doc.components.schemas.VariantPut.properties)).toEqual(['preset', 'timestamps', 'missingKey', 'errorBodies', 'rateLimitHeaders', 'nullFields', 'extraFields'])
    expect(doc.paths['/_mock/data/candles'].delete.parameters.map((p: { name: string }) => p.name)).toEqual(['exchange', 'aggregated', 'method', 'interval', 'base', 'quote', 'from', 'to'])
  })

  test('it describes every route of the control plane, its 401 and the body limits', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      ['/_mock/health', '/_mock/requests', '/_mock/usage', '/_mock/reset', '/_mock/faults', '/_mock/clock', '/_mock/openapi.json', '/_mock/data/candles', '/_mock/data/exchanges/{name}', '/_mock/data/assets/{ticker}', '/_mock/data/generate', '/_mock/data/reset', '/_mock/keys/{key}', '/_mock/plans', '/_mock/plans/{name}', '/_mock/variant'].sort(),
    )
    for (const [path, item] of Object.entries(doc.paths)) for (const [method, operation] of Object.entries(item as Record<string, { responses: Record<string, unknown> }>)) expect(operation.responses[401], `${method} ${path}`).toBeDefined()
    expect(doc.paths['/_mock/data/candles'].post.responses[413].description).toMatch(/64 MiB/)
    expect(doc.paths['/_mock/faults'].post.responses[413].description).toMatch(/64 KiB/)
  })

  test('every answer of every control route, valid and invalid, conforms to the document', async () => {
    const problems: string[] = []
    const call = async (method: string, path: string, body?: unknown, query = '', base = server.url) => {
      const res = await fetch(`${base}${path}${query}`, { method, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      problems.push(...(await conforms(res, path, method)))
    }
    await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=0`, { headers: { 'X-API-Key': 'demo-pro-key' } })
    await fetch(`${server.url}/v1/assets`)
    for (const base of [server.url, `${server.url}/_sessions/doc`]) {
      await call('GET', '/_mock/health', undefined, '', base)
      await call('GET', '/_mock/variant', undefined, '', base)
      await call('PUT', '/_mock/variant', { preset: 'python-stack', extraFields: true }, '', base)
      await call('PUT', '/_mock/variant', { timestamps: 'UTC' }, '', base)
      await call('PUT', '/_mock/variant', {}, '', base)
      await call('POST', '/_mock/faults', { kind: 'latency', latency_ms: { dist: 'lognormal', median_ms: 1, sigma: 0.1 }, probability: 0.5 }, '', base)
      await call('POST', '/_mock/faults', { path: '/v1/assets', status: 503, times: 2, query: { a: 'b' } }, '', base)
      await call('POST', '/_mock/faults', { kind: 'truncate' }, '', base)
      await call('POST', '/_mock/faults', '{', '', base)
      await call('GET', '/_mock/faults', undefined, '', base)
      await call('GET', '/_mock/requests', undefined, '', base)
      await call('GET', '/_mock/requests', undefined, '?status=422&since=0', base)
      await call('GET', '/_mock/requests', undefined, '?wait_for=1&timeout_ms=1000&path=/v1/assets', base)
      await call('GET', '/_mock/requests', undefined, '?wait_for=5&timeout_ms=10', base)
      await call('GET', '/_mock/requests', undefined, '?status=9999', base)
      await call('DELETE', '/_mock/requests', undefined, '', base)
      await call('GET', '/_mock/usage', undefined, '', base)
      await call('GET', '/_mock/clock', undefined, '', base)
      await call('POST', '/_mock/clock', { advance_ms: 1000 }, '', base)
      await call('POST', '/_mock/clock', { rate: 0 }, '', base)
      await call('POST', '/_mock/clock', { now: 'never' }, '', base)
      await call('POST', '/_mock/faults', { body: 'x'.repeat(70_000) }, '', base)
      await call('DELETE', '/_mock/faults', undefined, '', base)
      await call('POST', '/_mock/reset', undefined, '', base)
      await call('GET', '/_mock/openapi.json', undefined, '', base)
    }
    // The data, keys and plans routes (the documented path is the template: {name}, {ticker}, {key}).
    const candle = (close_ts: string, extra: Record<string, unknown> = {}) => ({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts, open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, source_provider: 't', source_channel: 't', flag: null, ...extra })
    const named = async (method: string, template: string, actual: string, body: unknown, base: string) => {
      const res = await fetch(`${base}${actual}`, { method, body: typeof body === 'string' ? body : JSON.stringify(body) })
      problems.push(...(await conforms(res, template, method)))
    }
    for (const base of [server.url, `${server.url}/_sessions/doc-data`]) {
      await call('POST', '/_mock/data/candles', [candle('2026-05-01T10:00:00Z')], '', base)
      await call('POST', '/_mock/data/candles', [candle('2026-05-01T10:00:00Z', { low: 200 }), { nope: 1 }], '', base)
      await call('POST', '/_mock/data/candles', '{', '', base)
      await call('DELETE', '/_mock/data/candles', undefined, '?exchange=bitstamp&interval=1h&base=BTC&quote=USD&from=2026-05-01&to=2026-05-02', base)
      await call('DELETE', '/_mock/data/candles', undefined, '?aggregated=true&interval=1h&base=BTC&quote=USD&from=2026-05-01&to=2026-05-02', base)
      await call('DELETE', '/_mock/data/candles', undefined, '?interval=1h&nope=1', base)
      await named('PUT', '/_mock/data/exchanges/{name}', '/_mock/data/exchanges/kraken', { creation_date: '2013-09-10', closing_date: null }, base)
      await named('PUT', '/_mock/data/exchanges/{name}', '/_mock/data/exchanges/kraken', { name: 'other', creation_date: '2013-09-10', closing_date: null }, base)
      await named('PUT', '/_mock/data/assets/{ticker}', '/_mock/data/assets/PEPE', { name: 'Pepe', asset_type: 'CRYPTO' }, base)
      await named('PUT', '/_mock/data/assets/{ticker}', '/_mock/data/assets/PEPE', { name: 'x'.repeat(70_000), asset_type: 'CRYPTO' }, base)
      await call('POST', '/_mock/data/generate', { exchange: 'kraken', interval: '1h', base: 'PEPE', quote: 'USD', from: '2026-05-01', to: '2026-05-02' }, '', base)
      await call('POST', '/_mock/data/generate', { exchange: 'kraken' }, '', base)
      await named('PUT', '/_mock/plans/{name}', '/_mock/plans/tiny', { endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } }, base)
      await named('PUT', '/_mock/plans/{name}', '/_mock/plans/tiny', { endpoints: { exchange_ohlcv: { '1h': 'forever' } } }, base)
      await call('GET', '/_mock/plans', undefined, '', base)
      await named('PUT', '/_mock/keys/{key}', '/_mock/keys/doc-key-1', { account: 'acct_doc', plan: 'tiny' }, base)
      await named('PUT', '/_mock/keys/{key}', '/_mock/keys/doc-key-1', { account: 'acct_doc2' }, base)
      await call('POST', '/_mock/data/reset', undefined, '', base)
    }
    const refused = await fetch(`${server.url}/_mock/usage`, { headers: { Origin: 'http://page.test' } })
    problems.push(...(await conforms(refused, '/_mock/usage', 'GET')))
    expect(problems).toEqual([])
  })

  test('the 401 of a locked control plane conforms too', async () => {
    const locked = await startMockServer({ port: 0, controlToken: 'doc-token-1' })
    try {
      const problems: string[] = []
      for (const [method, path] of [['GET', '/_mock/usage'], ['POST', '/_mock/data/reset'], ['GET', '/_mock/plans']] as const) {
        const res = await fetch(`${locked.url}${path}`, { method })
        expect(res.status).toBe(401)
        problems.push(...(await conforms(res, path, method)))
      }
      expect(problems).toEqual([])
    } finally {
      await locked.close()
    }
  })
})
