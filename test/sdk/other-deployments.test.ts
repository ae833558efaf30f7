import { getResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { SERVICE_VARIANTS, createMockService, type ServiceVariantName } from '../../mocks/index.js'
import { createHandlers } from '../../mocks/msw/index.js'
import {
  AuthenticationError,
  InternalServerError,
  PermissionDeniedError,
  ResponseValidationError,
  UnprocessableEntityError,
  createClient,
  type MarketCandles,
} from '../../src/index.js'
import { EXPLICIT_NOW, HOUR, T0, explicitDataset } from '../support/fixtures.js'
import { TIMESTAMP_FORMS, answering, rewritingFetch, type Rewrite } from '../support/other-deployment.js'
import { caught, collect } from '../support/sdk-targets.js'

const KEY = 'demo-enterprise-key'
const BASE = 'https://other.deployment.test/api'
const BTC = { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD' } as const
const RANGE = { ...BTC, start: new Date(T0).toISOString(), end: new Date(T0 + 120 * HOUR).toISOString() }

const service = createMockService({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false, validateResponses: true })
const handlers = createHandlers(service, { baseUrl: BASE })
const viaHandlers: typeof fetch = async (input, init) => {
  const res = await getResponse(handlers, new Request(input, init))
  if (!res) throw new Error('MSW handlers did not answer')
  return res
}

/**
 * The reference, and a deployment that writes its 200 bodies as `rewrite` says. Without the client's
 * own pacing (`rateLimit: false`): this file checks what the SDK reads, not when it sends
 * (rate-limiter.test.ts does); at the default 10 requests a second each comparison below (about 80
 * requests) waited 8 s, the file 150 s in all for 7 s of CPU.
 */
const reference = createClient({ baseUrl: BASE, apiKey: KEY, fetch: viaHandlers, rateLimit: false })
const deployment = (rewrite: Rewrite): MarketCandles => createClient({ baseUrl: BASE, apiKey: KEY, fetch: rewritingFetch(viaHandlers, rewrite), retry: false, rateLimit: false })

/** What a user reads from a deployment: the catalog, a page, walks both ways across gaps, the gap report. */
async function everything(client: MarketCandles) {
  const walk = client.exchangeOhlcvCandles({ ...RANGE, limit: 11 })
  const forward = await collect(walk)
  return {
    exchanges: await client.exchanges(),
    pairs: await client.exchangePairs({ exchange: 'alpha', interval: '1h' }),
    aggregatedPairs: await client.aggregatedPairs({ interval: '1h' }),
    page: await client.exchangeOhlcv({ ...BTC, limit: 7 }),
    aggregated: await collect(client.aggregatedOhlcvCandles({ interval: '1h', base: 'BTC', quote: 'USD', start: RANGE.start, limit: 9 })),
    forward,
    // No start: the walk goes backward from end.
    backward: await collect(client.exchangeOhlcvCandles({ ...BTC, end: RANGE.end, limit: 13 })),
    gaps: walk.gaps(),
  }
}

describe('the SDK reads every answer interface.md permits, and hands timestamps on canonical (D13)', () => {
  let expected: Awaited<ReturnType<typeof everything>>

  test('the reference, read as usual (the figures every other deployment must give)', async () => {
    expected = await everything(reference)
    expect(expected.forward.length).toBeGreaterThan(100)
    expect(expected.gaps.gaps.length).toBeGreaterThan(0)
    expect(expected.exchanges.some((e) => e.closing_date === null)).toBe(true)
    expect(expected.forward.some((c) => c.flag === null) && expected.forward.some((c) => c.flag !== null)).toBe(true)
  })

  test.each(Object.keys(TIMESTAMP_FORMS))('a close_ts written with %s is the same instant and is handed on canonical: catalog, pages, walks both ways, gaps', async (form) => {
    const read = await everything(deployment({ timestamp: TIMESTAMP_FORMS[form] }))
    expect(read).toEqual(expected)
    expect(read.forward[0]!.close_ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })

  test('a null field left out reads as null; fields the interface does not list are dropped', async () => {
    const read = await everything(deployment({ omitNulls: true, extraFields: true }))
    expect(read).toEqual(expected)
    expect(Object.keys(read.forward[0]!)).not.toContain('ingested_at')
  })

  test('a deployment that does all of it at once (a Python stack: +00:00, nulls left out, extra fields)', async () => {
    expect(await everything(deployment({ timestamp: TIMESTAMP_FORMS['.000000+00:00'], omitNulls: true, extraFields: true }))).toEqual(expected)
  })

  test('a non-zero offset reads as the instant it denotes', async () => {
    const shifted = (ts: string) => new Date(Date.parse(ts) + 2 * HOUR).toISOString().replace('.000Z', '+02:00')
    const read = await deployment({ timestamp: shifted }).exchangeOhlcv({ ...BTC, limit: 7 })
    expect(read).toEqual(expected.page)
  })
})

describe.each(Object.keys(SERVICE_VARIANTS) as ServiceVariantName[])("against the reference's variant %s (SERVICE_VARIANTS)", (name) => {
  const varied = createMockService({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false, variant: name })
  const variedHandlers = createHandlers(varied, { baseUrl: BASE })
  const viaVariant: typeof fetch = async (input, init) => (await getResponse(variedHandlers, new Request(input, init)))!
  const client = (withKey = true) => createClient({ baseUrl: BASE, ...(withKey ? { apiKey: KEY } : {}), fetch: viaVariant, retry: false, rateLimit: false })

  test('catalog, pages, walks both ways and gaps read the same as from the reference, timestamps canonical', async () => {
    expect(await everything(client())).toEqual(await everything(reference))
  })

  test('a missing key is an AuthenticationError that says no key was sent, whatever the status', async () => {
    const error = await caught(client(false).exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).toContain('no API key was sent')
  })

  test("the variant's own 422 and 404 bodies give the typed errors with the parameter named", async () => {
    // The SDK checks parameters before sending: the service's answers to bad ones, replayed to it.
    const answer = async (url: string) => {
      const res = await getResponse(variedHandlers, new Request(`${BASE}${url}`, { headers: { 'x-api-key': KEY } }))
      return answering(res!.status, await res!.text(), res!.headers.get('content-type') ?? 'text/plain')
    }
    const invalid = await caught(createClient({ baseUrl: BASE, apiKey: KEY, fetch: await answer('/v1/exchange_ohlcv?exchange=alpha&interval=1h&base=BTC&quote=USD&limit=5000'), retry: false }).exchangeOhlcv(BTC))
    expect(invalid).toBeInstanceOf(UnprocessableEntityError)
    expect(invalid.message).toMatch(/limit/)
    const unknown = await caught(createClient({ baseUrl: BASE, apiKey: KEY, fetch: await answer('/v1/exchange_ohlcv?exchange=nowhere&interval=1h&base=BTC&quote=USD'), retry: false }).exchangeOhlcv(BTC))
    expect(unknown).toBeInstanceOf(Error)
    expect(unknown.status).toBeGreaterThanOrEqual(400)
    expect(unknown.message).toMatch(/nowhere/)
  })
})

describe('a field of the wrong type is still a ResponseValidationError naming it', () => {
  test.each([
    ['a close_ts that is no UTC instant (no zone)', (ts: string) => ts.replace('Z', ''), 'body[0].close_ts: expected an ISO 8601 UTC datetime, got "2024-01-01T01:00:00"'],
    ['a close_ts with a space for the T', (ts: string) => ts.replace('T', ' '), 'body[0].close_ts: expected an ISO 8601 UTC datetime, got "2024-01-01 01:00:00Z"'],
    ['a close_ts with sub-millisecond digits', (ts: string) => ts.replace('Z', '.0000001Z'), 'body[0].close_ts: expected an ISO 8601 UTC datetime, got "2024-01-01T01:00:00.0000001Z"'],
  ])('%s', async (_what, timestamp, problem) => {
    const error = await caught(deployment({ timestamp }).exchangeOhlcv({ ...BTC, start: RANGE.start, limit: 3 }))
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.problems[0]).toBe(problem)
  })

  test('a number for close_ts, a number for flag, a missing close', async () => {
    const body = JSON.stringify([{ exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD', close_ts: 1704070800000, open: 1, high: 1, low: 1, close: 1, base_volume: 1, quote_volume: 1, source_provider: 'x', source_channel: 'y', flag: 7 }, { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD', close_ts: '2024-01-01T02:00:00+00:00', open: 1, high: 1, low: 1, base_volume: 1, quote_volume: 1, source_provider: 'x', source_channel: 'y' }])
    const client = createClient({ baseUrl: BASE, apiKey: KEY, fetch: answering(200, body), retry: false })
    const error = await caught(client.exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.problems).toEqual(['body[0].close_ts: expected string, got number', expect.stringMatching(/^body\[0\]\.flag: /), 'body[1].close: expected number, got undefined'])
  })
})

describe('error answers of any shape give the typed error with a useful message, never a crash (D13)', () => {
  const call = (fetch: typeof globalThis.fetch, withKey = true) => caught(createClient({ baseUrl: BASE, ...(withKey ? { apiKey: KEY } : {}), fetch, retry: false }).exchangeOhlcv(BTC))

  test('a missing key answered 403 is an AuthenticationError that says no key was sent', async () => {
    const error = await call(answering(403, '{"detail":"Not authenticated"}'), false)
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.status).toBe(403)
    expect(error.message).toContain("no API key was sent: set the client's apiKey option")
  })

  test('a missing key answered 401 is an AuthenticationError too', async () => {
    const error = await call(answering(401, '{"detail":"Not authenticated"}'), false)
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).toMatch(/^401 Not authenticated; no API key was sent/)
  })

  test('a 403 to a request with a key is a PermissionDeniedError (a plan refusing it)', async () => {
    const error = await call(answering(403, '{"detail":"Plan does not allow 1m"}'))
    expect(error).toBeInstanceOf(PermissionDeniedError)
    expect(error.message).not.toContain('no API key')
  })

  test('a pydantic v1 422 body: issues with their loc, the message naming the parameter', async () => {
    const error = await call(answering(422, JSON.stringify({ detail: [{ loc: ['query', 'limit'], msg: 'ensure this value is less than or equal to 1000', type: 'value_error.number.not_le', ctx: { limit_value: 1000 } }] })))
    expect(error).toBeInstanceOf(UnprocessableEntityError)
    expect(error.issues).toEqual([{ type: 'value_error.number.not_le', loc: ['query', 'limit'], msg: 'ensure this value is less than or equal to 1000', input: undefined, ctx: { limit_value: 1000 } }])
    expect(error.message).toMatch(/^422 limit: ensure this value is less than or equal to 1000 \(GET /)
  })

  test('a pydantic v2 422 body as the reference writes it', async () => {
    const issue = { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer', input: 'x' }
    const error = await call(answering(422, JSON.stringify({ detail: [issue] })))
    expect(error.issues).toEqual([issue])
    expect(error.message).toContain('422 limit: Input should be a valid integer')
  })

  test.each([
    ['a plain string detail on a 422', 422, '{"detail":"limit must be at most 1000"}', UnprocessableEntityError, '422 limit must be at most 1000'],
    ['a detail array of strings', 422, '{"detail":["limit too big","start too early"]}', UnprocessableEntityError, '422 limit too big; start too early'],
    ['a detail object', 400, '{"detail":{"code":7}}', Error, '400 {"code":7}'],
    ['a message field instead of detail', 500, '{"message":"Internal Server Error"}', InternalServerError, '500 Internal Server Error'],
    ['text that is not JSON', 502, '<html><body>Bad Gateway</body></html>', InternalServerError, '502 <html><body>Bad Gateway</body></html>'],
    ['an empty body', 503, '', InternalServerError, '503 no detail'],
    ['a JSON null', 500, 'null', InternalServerError, '500 no detail'],
    ['a bare JSON string', 404, '"Not Found"', Error, '404 Not Found'],
  ])('%s', async (_what, status, body, Class, start) => {
    const error = await call(answering(status, body, body.startsWith('<') ? 'text/html' : 'application/json'))
    expect(error).toBeInstanceOf(Class)
    expect(error.status).toBe(status)
    expect(error.message.startsWith(start), error.message).toBe(true)
  })

  test('a very long text body is cut at 200 characters and never echoes the key', async () => {
    const error = await call(answering(500, `${KEY} ${'x'.repeat(5000)}`, 'text/plain'))
    expect(error.message.length).toBeLessThan(400)
    expect(error.message).not.toContain(KEY)
  })
})
