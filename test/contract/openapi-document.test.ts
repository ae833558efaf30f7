import { readFileSync } from 'node:fs'
import { compileErrors, validate } from '@readme/openapi-parser'
import { describe, expect, test } from 'vitest'
import {
  ENDPOINTS,
  LIMIT,
  querySchemas,
  toValidationIssues,
  type EndpointName,
} from '../../src/contract/index.js'
import { buildOpenApiDocument } from '../../src/openapi/index.js'
import { INTERVALS, METHODS } from '../../src/schemas/index.js'
import { PRO, TRANSPORTS } from '../support/transports.js'

const FILE = new URL('../../docs/openapi.json', import.meta.url)
const doc = buildOpenApiDocument() as any
const QUERIES = querySchemas
const NAMES = Object.keys(ENDPOINTS) as EndpointName[]
const CANDLES = ['exchange_ohlcv', 'aggregated_ohlcv']

/** A valid value of every parameter, to vary one at a time. */
const VALID: Record<string, string> = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', method: 'omm_vwap_v1', start: '2024-01-01T00:00:00Z', end: '2024-02-01T00:00:00Z', limit: '10' }

/** The 422 issues the service's own parser gives `param` in a query of otherwise valid values. */
function issuesFor(endpoint: EndpointName, query: Record<string, string | undefined>, param: string) {
  const parsed = QUERIES[endpoint].safeParse(query)
  return parsed.success ? [] : toValidationIssues(parsed.error.issues, query).filter((i) => i.loc[1] === param)
}

describe('the OpenAPI document (docs/openapi.json)', () => {
  test('docs/openapi.json is what `npm run openapi` generates from the schemas today (run it when this fails)', () => {
    expect(JSON.parse(readFileSync(FILE, 'utf8'))).toEqual(doc)
  })

  test('is a valid OpenAPI 3.1 document for @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(doc))
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
    expect(result.specification).toBe('OpenAPI')
    expect(doc.openapi).toBe('3.1.0')
  })

  test('has every path of the service, each a GET, and the API-key scheme on the two candle endpoints only', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(NAMES.map((n) => ENDPOINTS[n].path).sort())
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' })
    expect(doc.security).toBeUndefined()
    for (const name of NAMES) {
      const op = doc.paths[ENDPOINTS[name].path].get
      expect(op.security, name).toEqual(CANDLES.includes(name) ? [{ ApiKey: [] }] : undefined)
    }
  })

  test('documents every status each endpoint answers, with body and headers; 405 with Allow for other methods', () => {
    const statuses = (name: EndpointName) => Object.keys(doc.paths[ENDPOINTS[name].path].get.responses)
    expect(statuses('exchanges')).toEqual(['200'])
    expect(statuses('assets')).toEqual(['200'])
    expect(statuses('exchange_pairs')).toEqual(['200', '404', '422'])
    expect(statuses('aggregated_pairs')).toEqual(['200', '404', '422'])
    expect(statuses('exchange_ohlcv')).toEqual(['200', '401', '403', '404', '422', '429'])
    expect(statuses('aggregated_ohlcv')).toEqual(['200', '401', '403', '404', '422', '429'])
    const r = doc.components.responses
    expect(Object.keys(r.Unauthorized.headers)).toEqual(['WWW-Authenticate'])
    expect(Object.keys(r.TooManyRequests.headers)).toEqual(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
    expect(Object.keys(r.MethodNotAllowed.headers)).toEqual(['Allow'])
    expect(r.ValidationError.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationErrorBody' })
    for (const name of CANDLES) expect(Object.keys(doc.paths[ENDPOINTS[name as EndpointName].path].get.responses[200].headers)).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
    for (const path of Object.keys(doc.paths)) expect(doc.paths[path]['x-other-methods']).toEqual({ $ref: '#/components/responses/MethodNotAllowed' })
  })

  test('the paging and plan rules are in the candle endpoints\' descriptions', () => {
    for (const name of CANDLES) {
      const text = doc.paths[ENDPOINTS[name as EndpointName].path].get.description
      expect(text).toMatch(/plus one millisecond/)
      expect(text).toMatch(/minus one millisecond/)
      expect(text).toMatch(/history depth/)
    }
  })

  describe.each(NAMES)('the parameters of %s agree with the parser the service validates with', (name) => {
    const params: any[] = doc.paths[ENDPOINTS[name].path].get.parameters
    const shape = Object.keys((QUERIES[name] as any).def.shape)
    const valid = Object.fromEntries(shape.map((p) => [p, VALID[p]]))

    test('the same parameters, and a parameter is required exactly when leaving it out is a 422 "missing"', () => {
      expect(params.map((p) => p.name)).toEqual(shape)
      for (const p of params) {
        const without = issuesFor(name, { ...valid, [p.name]: undefined }, p.name)
        expect(without.map((i) => i.type), p.name).toEqual(p.required ? ['missing'] : [])
        // An empty value is a 422 for every parameter, and no documented schema admits it.
        expect(issuesFor(name, { ...valid, [p.name]: '' }, p.name).length, `${p.name}=""`).toBe(1)
        expect(p.schema.minLength === 1 || p.schema.enum !== undefined || p.schema.type === 'integer' || p.schema.format === 'date-time', p.name).toBe(true)
      }
    })

    test('limit: an integer from 1 to 1000, default 500, exactly the bounds the parser enforces', () => {
      const limit = params.find((p) => p.name === 'limit')
      if (!limit) return expect(shape).not.toContain('limit')
      expect(limit.schema).toEqual({ type: 'integer', minimum: LIMIT.min, maximum: LIMIT.max, default: LIMIT.default })
      for (const n of [limit.schema.minimum, limit.schema.maximum]) expect(issuesFor(name, { ...valid, limit: String(n) }, 'limit')).toEqual([])
      expect(issuesFor(name, { ...valid, limit: String(limit.schema.minimum - 1) }, 'limit')[0]?.type).toBe('greater_than_equal')
      expect(issuesFor(name, { ...valid, limit: String(limit.schema.maximum + 1) }, 'limit')[0]?.type).toBe('less_than_equal')
      expect(issuesFor(name, { ...valid, limit: '2.5' }, 'limit')[0]?.type).toBe('int_parsing')
    })

    test('enums: interval and method list the values the service serves; start/end are date-times', () => {
      for (const p of params) {
        if (p.name === 'interval') expect(p.schema.enum).toEqual([...INTERVALS])
        if (p.name === 'method') expect(p.schema.enum).toEqual([...METHODS])
        if (p.name === 'start' || p.name === 'end') {
          expect(p.schema).toMatchObject({ type: 'string', format: 'date-time' })
          for (const example of p.schema.examples) expect(issuesFor(name, { ...valid, [p.name]: example, ...(p.name === 'start' ? { end: undefined } : { start: undefined }) }, p.name)).toEqual([])
          expect(issuesFor(name, { ...valid, [p.name]: 'tomorrow' }, p.name)[0]?.type).toBe('datetime_from_date_parsing')
        }
      }
    })
  })
})

describe.each(TRANSPORTS)('GET /openapi.json via %s', (_name, connect) => {
  test('serves the document: public, no key, never counted; another method is a 405', async () => {
    const t = await connect({ now: '2026-06-01T00:00:00Z' })
    try {
      const res = await t.get('/openapi.json')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.body).toEqual(doc)
      expect((await t.get('/openapi.json', PRO)).status).toBe(200)
      expect(t.service.usage()).toEqual({ acct_free: 0, acct_pro: 0, acct_enterprise: 0 })
      const post = await t.request('POST', '/openapi.json')
      expect(post.status).toBe(405)
      expect(post.headers.get('allow')).toBe('GET')
    } finally {
      await t.close()
    }
  })
})
