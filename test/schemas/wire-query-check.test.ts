import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type * as z from 'zod/mini'
import {
  querySchemas,
  toValidationIssues,
  type EndpointName,
} from '../../src/contract/index.js'
import { QUERY_FIELDS, checkWireQuery } from '../../src/contract/wire-query-check.js'

// The candle queries refine their object schema (start <= end); their shape is still an object's.
const ZOD_QUERIES = querySchemas as unknown as Record<EndpointName, z.ZodMiniObject>
const ENDPOINTS = Object.keys(ZOD_QUERIES) as EndpointName[]

/** The service's 422 issues for a query: its zod schema, as the reference service reads them. */
function serviceIssues(endpoint: EndpointName, query: Record<string, string>) {
  const parsed = ZOD_QUERIES[endpoint].safeParse(query)
  return parsed.success ? [] : toValidationIssues(parsed.error.issues, query)
}

const NAMES = ['exchange', 'interval', 'base', 'quote', 'method', 'start', 'end', 'limit', 'cursor']
const VALUES = ['', 'bitstamp', '1h', 'omm_vwap_v1', '0', '1', '1000', '1001', '-5', ' 7 ', 'abc', '1.5', '2024-01-01', '2024-02-01T00:00:00Z', '2024-01-31T23:59:59.999+02:00', '2024-13-01', 'soon']

describe('the SDK checks wire queries with the service rules, without zod', () => {
  test.each(ENDPOINTS)('%s: the same parameters as the zod query schema, in its order', (endpoint) => {
    expect(Object.keys(QUERY_FIELDS[endpoint])).toEqual(Object.keys(ZOD_QUERIES[endpoint].shape))
  })

  test.each(ENDPOINTS)('%s: any query gets exactly the 422 issues the service gives', (endpoint) => {
    const query = fc.dictionary(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES), { maxKeys: NAMES.length })
    fc.assert(
      fc.property(query, (q) => {
        expect(checkWireQuery(endpoint, q)).toEqual(serviceIssues(endpoint, q))
      }),
      { numRuns: 400 },
    )
  })

  test('start after end is reported on end once every parameter is valid, as the service does', () => {
    const q = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', start: '2024-02-01', end: '2024-01-01' }
    const issues = checkWireQuery('exchange_ohlcv', q)
    expect(issues).toEqual([{ type: 'value_error', loc: ['query', 'end'], msg: 'Value error, start must not be after end', input: '2024-01-01', ctx: { error: 'start must not be after end' } }])
    expect(issues).toEqual(serviceIssues('exchange_ohlcv', q))
    expect(checkWireQuery('exchange_ohlcv', { ...q, limit: 'abc' }).map((i) => i.loc[1])).toEqual(['limit'])
  })
})
