import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  InvalidParamsError,
  MarketCandlesError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  createClient,
  isKnownFlag,
} from '../../src/index.js'
import { SDK_TARGETS, caught, sdkViaHttp, type SdkTarget } from '../support/sdk-targets.js'

const SECRET = 'demo-enterprise-key'
const BTC = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' } as const

/** The key appears nowhere in what a caller can see of an error: message, stack, fields, toJSON, cause chain. */
function expectNoKey(error: unknown, key: string) {
  const seen: string[] = []
  for (let e: any = error, depth = 0; e && depth < 10; e = e.cause, depth++) {
    seen.push(String(e), e.message ?? '', e.stack ?? '', JSON.stringify(e), JSON.stringify(e.toJSON?.() ?? {}))
    for (const value of Object.values(e)) seen.push(typeof value === 'string' ? value : JSON.stringify(value) ?? '')
  }
  for (const text of seen) expect(text).not.toContain(key)
}

describe.each(SDK_TARGETS)('typed errors, one class per status, via %s', (_name, connect) => {
  let target: SdkTarget
  beforeAll(async () => {
    target = await connect({ now: '2026-06-01T00:00:00Z' })
  })
  afterAll(() => target.close())
  beforeEach(() => target.service.reset())

  test('401 AuthenticationError: missing key ("Not authenticated") and revoked key ("Invalid API key")', async () => {
    const missing = await caught(target.client().exchangeOhlcv(BTC))
    expect(missing).toBeInstanceOf(AuthenticationError)
    expect(missing).toMatchObject({ status: 401, detail: 'Not authenticated', method: 'GET' })
    expect(missing.url).toContain('/v1/exchange_ohlcv?exchange=bitstamp')
    const revoked = await caught(target.client({ apiKey: 'demo-revoked-key' }).exchangeOhlcv(BTC))
    expect(revoked).toBeInstanceOf(AuthenticationError)
    expect(revoked.detail).toBe('Invalid API key')
    expectNoKey(revoked, 'demo-revoked-key')
  })

  test('403 PermissionDeniedError: endpoint, interval, or start beyond the plan depth', async () => {
    const free = target.client({ apiKey: 'demo-free-key' })
    for (const call of [
      () => free.aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD' }),
      () => free.exchangeOhlcv({ ...BTC, interval: '1m' }),
      () => free.exchangeOhlcv({ ...BTC, start: '2020-01-01' }),
    ]) {
      const error = await caught(call())
      expect(error).toBeInstanceOf(PermissionDeniedError)
      expect(error.status).toBe(403)
      expect(typeof error.detail).toBe('string')
    }
  })

  test('404 NotFoundError names the unknown value', async () => {
    const error = await caught(target.client({ apiKey: SECRET }).exchangeOhlcv({ ...BTC, base: 'NOPE' }))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.detail).toBe("No candles for NOPE/USD on exchange 'bitstamp' at interval '1h'")
    expect(await caught(target.client().exchangePairs({ exchange: 'nope', interval: '1h' }))).toBeInstanceOf(NotFoundError)
  })

  test('422 UnprocessableEntityError carries the parsed issues of the 422 body', async () => {
    const issue = { type: 'missing', loc: ['query', 'base'], msg: 'Field required', input: null }
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 422, body: { detail: [issue] } })
    const error = await caught(target.client({ apiKey: SECRET }).exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(UnprocessableEntityError)
    expect(error.issues).toEqual([issue])
  })

  test('429 RateLimitError with retryAfter, when retries are off', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 429, body: { detail: 'Rate limit exceeded: 10 requests per second' }, headers: { 'retry-after': '3' } })
    const error = await caught(target.client({ apiKey: SECRET, retry: false }).exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.retryAfter).toBe(3)
    expect(error.detail).toBe('Rate limit exceeded: 10 requests per second')
  })

  test('5xx InternalServerError, when retries are off', async () => {
    target.service.faults.add({ path: '/v1/assets', status: 503, body: { detail: 'Service Unavailable' } })
    const error = await caught(target.client({ retry: false }).assets())
    expect(error).toBeInstanceOf(InternalServerError)
    expect(error).toBeInstanceOf(APIError)
    expect(error.status).toBe(503)
  })

  test('an error body that is not JSON still gives the right class, with the text as detail', async () => {
    target.service.faults.add({ path: '/v1/assets', status: 502, body: 'Bad Gateway' })
    const error = await caught(target.client({ retry: false }).assets())
    expect(error).toBeInstanceOf(InternalServerError)
    // The fault writes the text as a JSON string: its words are the detail, without the quotes.
    expect(error.detail).toBe('Bad Gateway')
  })

  test('connection failure: APIConnectionError, with a cause that holds no request', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', networkError: true })
    const error = await caught(target.client({ apiKey: SECRET, retry: false }).exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(APIConnectionError)
    expect(error).not.toBeInstanceOf(APITimeoutError)
    expectNoKey(error, SECRET)
  })

  test('a 200 whose body breaks the schema: ResponseValidationError, kept apart from transport errors', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 200, body: [{ close_ts: 'soon', open: 'high' }] })
    const error = await caught(target.client({ apiKey: SECRET }).exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error).not.toBeInstanceOf(APIError)
    expect(error).not.toBeInstanceOf(APIConnectionError)
    expect(error.problems).toContain('body[0].exchange: expected string, got undefined')
    // with validation off the body is passed through unchecked
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 200, body: [{ close_ts: 'soon' }] })
    expect(await target.client({ apiKey: SECRET, validate: false }).exchangeOhlcv(BTC)).toEqual([{ close_ts: 'soon' }])
  })

  test('a new enum value from the service (flag, interval, method, asset_type) reaches the caller unchanged', async () => {
    const [candle] = await target.client({ apiKey: SECRET }).aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD', limit: 1 })
    target.service.faults.add({ path: '/v1/aggregated_ohlcv', status: 200, body: [{ ...candle, flag: 'stale', method: 'omm_vwap_v2', interval: '4h' }] })
    const [newer] = await target.client({ apiKey: SECRET }).aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD', limit: 1 })
    expect(newer).toMatchObject({ flag: 'stale', method: 'omm_vwap_v2', interval: '4h' })
    expect(isKnownFlag(newer!.flag)).toBe(false)
    target.service.faults.add({ path: '/v1/assets', status: 200, body: [{ name: 'Gold', asset_type: 'COMMODITY', ticker: 'XAU' }] })
    expect((await target.client().assets())[0]!.asset_type).toBe('COMMODITY')
  })

  test('abort: APIUserAbortError, also while in flight', async () => {
    const controller = new AbortController()
    const pending = target.client({ apiKey: SECRET }).exchangeOhlcv({ ...BTC, limit: 1000 }, { signal: controller.signal })
    controller.abort(new Error('user gave up'))
    const error = await caught(pending)
    expect(error).toBeInstanceOf(APIUserAbortError)
    expect(error.reason).toEqual(new Error('user gave up'))
  })

  test('every error class shares the MarketCandlesError base, and each carries status, detail, method and URL', async () => {
    const error = await caught(target.client({ apiKey: 'demo-free-key' }).exchangeOhlcv({ ...BTC, interval: '1m' }))
    expect(error).toBeInstanceOf(MarketCandlesError)
    expect(error.toJSON()).toMatchObject({ name: 'PermissionDeniedError', status: 403, method: 'GET', detail: expect.any(String), url: expect.stringContaining('interval=1m') })
  })
})

describe('key hygiene', () => {
  test('hook events, URLs and every error of a failing session never hold the key', async () => {
    const target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const events: unknown[] = []
      const log = (e: unknown) => events.push(e)
      const client = target.client({ apiKey: SECRET, retry: { limit: 1, baseDelayMs: 1 }, hooks: { onRequest: log, onResponse: log, onRetry: log, onError: log } })
      target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503 })
      target.service.faults.add({ path: '/v1/exchange_ohlcv', networkError: true, times: 2 })
      const errors = [await caught(client.exchangeOhlcv(BTC)), await caught(client.exchangeOhlcv({ ...BTC, base: 'NOPE' }))]
      await client.exchangeOhlcv(BTC)
      expect(events.length).toBeGreaterThan(5)
      for (const e of [...events, ...errors]) expectNoKey(e, SECRET)
      for (const sent of target.sent) expect(sent.url.toString()).not.toContain(SECRET)
    } finally {
      await target.close()
    }
  })

  test('a service that echoes the key in its error detail does not put it into the thrown error', async () => {
    const target = await sdkViaHttp()
    try {
      target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 400, body: { detail: `bad key ${SECRET}` }, headers: { 'x-echo': SECRET } })
      const error = await caught(target.client({ apiKey: SECRET }).exchangeOhlcv(BTC))
      expect(error.detail).toBe('bad key [redacted]')
      expectNoKey(error, SECRET)
    } finally {
      await target.close()
    }
  })
})

describe('timeouts', () => {
  test('no response within timeout: APITimeoutError, a kind of connection error', async () => {
    const target = await sdkViaHttp({ latency: 400 })
    try {
      const error = await caught(target.client({ timeout: 100, retry: false }).assets())
      expect(error).toBeInstanceOf(APITimeoutError)
      expect(error).toBeInstanceOf(APIConnectionError)
      expect(error.message).toMatch(/timed out after 100 ms/)
    } finally {
      await target.close()
    }
  })

  test('the timeout covers the body too: headers sent, body stalled, APITimeoutError', async () => {
    // A server that answers 200 with its headers and the start of a body, then goes silent.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      res.write('[')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, timeout: 150, retry: false })
      const started = performance.now()
      const error = await caught(client.assets())
      expect(error).toBeInstanceOf(APITimeoutError)
      expect(performance.now() - started).toBeLessThan(5000)
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('client-side validation: the same rules as the service 422, a typed error, and no network call', () => {
  let target: SdkTarget
  beforeAll(async () => {
    target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
  })
  afterAll(() => target.close())

  const cases: Array<[string, Record<string, unknown>]> = [
    ['a missing required field', { exchange: 'bitstamp', interval: '1h', base: 'BTC' }],
    ['an empty string', { ...BTC, exchange: '' }],
    ['limit 0', { ...BTC, limit: 0 }],
    ['limit 1001', { ...BTC, limit: 1001 }],
    ['a fractional limit', { ...BTC, limit: 2.5 }],
    ['an unparseable date', { ...BTC, start: 'next tuesday' }],
    ['start after end', { ...BTC, start: '2024-02-01', end: '2024-01-01' }],
    ['start after end, as Dates', { ...BTC, start: new Date('2024-02-01'), end: new Date('2024-01-01') }],
  ]

  test.each(cases)('%s: InvalidParamsError with exactly the issues the service would answer, and nothing sent', async (_what, params) => {
    target.sent.length = 0
    const error = await caught(target.client({ apiKey: SECRET }).exchangeOhlcv(params as never))
    expect(error).toBeInstanceOf(InvalidParamsError)
    expect(target.sent).toHaveLength(0)
    const wire = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)]))
    const server = await target.service.handle({ method: 'GET', url: `/v1/exchange_ohlcv?${wire}`, headers: { 'X-API-Key': SECRET } })
    expect(server.status).toBe(422)
    expect(error.issues).toEqual((server.body as { detail: unknown }).detail)
  })

  test('an invalid Date or a non-finite epoch is refused before sending', async () => {
    for (const start of [new Date('nope'), Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await caught(target.client({ apiKey: SECRET }).exchangeOhlcv({ ...BTC, start }))
      expect(error).toBeInstanceOf(InvalidParamsError)
      expect(error.issues[0]).toMatchObject({ type: 'datetime_from_date_parsing', loc: ['query', 'start'] })
    }
  })

  test('the catalog pairs endpoints check their required parameters too', async () => {
    const error = await caught(target.client().exchangePairs({ interval: '1h' } as never))
    expect(error).toBeInstanceOf(InvalidParamsError)
    expect(error.issues).toEqual([{ type: 'missing', loc: ['query', 'exchange'], msg: 'Field required', input: null }])
  })

  test('bad client options get a clear error at creation', () => {
    expect(() => target.client({ baseUrl: 'not a url' })).toThrow(/baseUrl must be an absolute http\(s\) URL/)
    expect(() => target.client({ timeout: -1 })).toThrow(/timeout must be a positive integer/)
    expect(() => target.client({ retry: { limit: -1 } })).toThrow(/retry\.limit must be a non-negative number/)
    expect(() => target.client({ apiKey: '' })).toThrow(/apiKey must be a non-empty string/)
    expect(() => target.client({ rateLimit: { perSecond: 0 } })).toThrow(/perSecond must be a positive integer/)
  })
})
