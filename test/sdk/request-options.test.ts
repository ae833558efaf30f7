import { readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { APIConnectionError, APITimeoutError, AuthenticationError, createClient, InternalServerError, type Logger } from '../../src/index.js'
import { caught, sdkViaHttp, type SdkTarget } from '../support/sdk-targets.js'

const KEY = 'demo-enterprise-key'
const BTC = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 2 } as const
const FAST = { limit: 3, baseDelayMs: 5, maxDelayMs: 20 }
const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string

let target: SdkTarget
beforeAll(async () => {
  target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
})
afterAll(() => target.close())
beforeEach(async () => {
  target.sent.length = 0
  await target.service.reset()
})

describe('per-request options over the client defaults', () => {
  test('maxRetries of one call overrides the client retry limit', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503, times: 3 })
    const client = target.client({ apiKey: KEY, retry: FAST })
    expect(await caught(client.exchangeOhlcv(BTC, { maxRetries: 0 }))).toBeInstanceOf(InternalServerError)
    expect(target.sent).toHaveLength(1)
  })

  test('timeout of one call overrides the client timeout', async () => {
    const slow = await sdkViaHttp({ now: '2026-06-01T00:00:00Z', latency: 300 })
    try {
      const client = slow.client({ apiKey: KEY, timeout: 10_000, retry: false })
      const error = await caught(client.exchangeOhlcv(BTC, { timeout: 50 }))
      expect(error).toBeInstanceOf(APITimeoutError)
      expect(error.message).toContain('50 ms')
    } finally {
      await slow.close()
    }
  })

  test('headers of the client and of one call are sent, the call over the client', async () => {
    const client = target.client({ apiKey: KEY, headers: { 'X-Source': 'client', 'X-Team': 'data' } })
    await client.exchangeOhlcv(BTC, { headers: { 'X-Source': 'call' } })
    const sent = target.sent[0]!.headers
    expect(sent.get('x-source')).toBe('call')
    expect(sent.get('x-team')).toBe('data')
    expect(sent.get('x-api-key')).toBe(KEY)
  })

  test('X-API-Key cannot be set through headers, in any case: the call rejects and nothing is sent', async () => {
    const client = target.client({ apiKey: KEY })
    for (const name of ['X-API-Key', 'x-api-key']) {
      const error = await caught(client.assets({ headers: { [name]: 'demo-pro-key' } }))
      expect(error).toBeInstanceOf(TypeError)
      expect(error.message).toMatch(/must not set X-API-Key/)
      expect(error.message).not.toContain('demo-pro-key')
    }
    expect(() => target.client({ apiKey: KEY, headers: { 'X-Api-Key': 'demo-pro-key' } })).toThrow(/must not set X-API-Key/)
    expect(target.sent).toHaveLength(0)
  })

  test('walks take the request options and pass them to each of their requests', async () => {
    const client = target.client({ apiKey: KEY })
    const walk = client.exchangeOhlcvPages({ ...BTC, start: '2026-05-01', end: '2026-05-01T05:00:00Z' }, { headers: { 'X-Walk': 'yes' }, concurrency: 1 })
    await walk.toArray()
    expect(target.sent.length).toBeGreaterThanOrEqual(3)
    expect(target.sent.every((r) => r.headers.get('x-walk') === 'yes')).toBe(true)
  })
})

describe('unknown options are refused with a clear message (JavaScript callers have no type checker)', () => {
  test('createClient throws on an unknown option and suggests the known one', () => {
    expect(() => createClient({ apikey: KEY } as never)).toThrow("Unknown option 'apikey' of createClient; did you mean 'apiKey'?")
    expect(() => createClient({ baseURL: 'http://x' } as never)).toThrow("did you mean 'baseUrl'?")
    expect(() => createClient({ retry: { limt: 2 } } as never)).toThrow("Unknown option 'retry.limt'")
    expect(() => createClient({ logLevel: 'verbose' } as never)).toThrow(/logLevel must be one of/)
  })

  test('a method rejects (never throws) on an unknown request option', async () => {
    const client = target.client({ apiKey: KEY })
    let promise: Promise<unknown> | undefined
    expect(() => (promise = client.exchangeOhlcv(BTC, { timeOut: 5 } as never))).not.toThrow()
    const error = await caught(promise!)
    expect(error.message).toContain("Unknown option 'timeOut' of exchangeOhlcv; did you mean 'timeout'?")
    expect(target.sent).toHaveLength(0)
  })

  test('a walk throws on an unknown option when it is created', () => {
    const client = target.client({ apiKey: KEY })
    expect(() => client.exchangeOhlcvCandles(BTC, { maxitems: 5 } as never)).toThrow("did you mean 'maxItems'?")
    expect(() => client.exchangeOhlcvCandles(BTC, { concurency: 2 } as never)).toThrow("did you mean 'concurrency'?")
  })
})

describe('withResponse: the data with its HTTP response', () => {
  test('resolves { data, response } with status and RateLimit-* headers; awaiting the promise still gives the data', async () => {
    const client = target.client({ apiKey: KEY })
    const { data, response } = await client.exchangeOhlcv(BTC).withResponse()
    expect(data).toHaveLength(2)
    expect(response.status).toBe(200)
    expect(response.headers.get('ratelimit-limit')).toBe('10')
    expect(response.headers.get('ratelimit-remaining')).toMatch(/^\d+$/)
    expect(await client.exchanges()).toEqual((await client.exchanges().withResponse()).data)
    expect(client.assets()).toBeInstanceOf(Promise)
  })

  test('a failure rejects withResponse with the same error class', async () => {
    const client = target.client({ apiKey: 'demo-revoked-key' })
    expect(await caught(client.exchangeOhlcv(BTC).withResponse())).toBeInstanceOf(AuthenticationError)
    expect(await caught(client.exchangeOhlcv(BTC))).toBeInstanceOf(AuthenticationError)
  })
})

describe('logging', () => {
  function capture(): { logger: Logger; lines: Array<{ level: string; message: string; fields: unknown }> } {
    const lines: Array<{ level: string; message: string; fields: unknown }> = []
    const at = (level: string) => (message: string, fields?: unknown) => lines.push({ level, message, fields })
    return { lines, logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } }
  }
  afterEach(() => vi.unstubAllEnvs())

  test('debug logs each attempt (method, URL, status, ms), each retry and each limiter wait; never the key', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503, times: 1 })
    const { logger, lines } = capture()
    const client = target.client({ apiKey: KEY, retry: FAST, logLevel: 'debug', logger })
    await client.exchangeOhlcv(BTC)
    await Promise.all(Array.from({ length: 12 }, () => client.exchangeOhlcv(BTC)))
    await caught(target.client({ apiKey: 'demo-revoked-key', logLevel: 'debug', logger }).exchangeOhlcv(BTC))
    const text = lines.map((l) => `${l.level} ${l.message} ${JSON.stringify(l.fields)}`).join('\n')
    expect(text).toMatch(/debug market-candles: GET http:\/\/\S+\/v1\/exchange_ohlcv\?\S+ -> 503 in \d+ ms/)
    expect(text).toMatch(/warn market-candles: retrying GET \S+ in \d+ ms after 503/)
    expect(text).toMatch(/debug market-candles: rate limiter held GET \S+ for \d+ ms/)
    expect(text).toMatch(/info market-candles: GET \S+ -> 200 \(\d+ ms, 2 attempts\)/)
    expect(text).toMatch(/error market-candles: GET \S+ failed after 1 attempt .*AuthenticationError/)
    expect(text).not.toContain(KEY)
    expect(text).not.toContain('demo-revoked-key')
  })

  test('the level comes from MARKET_CANDLES_LOG when not given; off by default; lower levels are dropped', async () => {
    const { logger, lines } = capture()
    await target.client({ logger }).assets()
    expect(lines).toEqual([])
    vi.stubEnv('MARKET_CANDLES_LOG', 'info')
    await target.client({ logger }).assets()
    expect(lines.map((l) => l.level)).toEqual(['info'])
    lines.length = 0
    await target.client({ logger, logLevel: 'error' }).assets()
    expect(lines).toEqual([])
  })

  test('a logger that throws does not fail the request', async () => {
    const boom = () => {
      throw new Error('logger down')
    }
    const client = target.client({ logLevel: 'debug', logger: { error: boom, warn: boom, info: boom, debug: boom } })
    expect(await client.assets()).not.toHaveLength(0)
  })
})

describe('defaults users expect', () => {
  test('User-Agent is market-candles/<package.json version> in Node', async () => {
    await target.client().assets()
    expect(target.sent[0]!.headers.get('user-agent')).toBe(`market-candles/${VERSION}`)
  })

  test('with the placeholder base URL, a connection failure says to set baseUrl, at once (no retries)', async () => {
    let calls = 0
    const failing: typeof fetch = async () => {
      calls++
      throw new TypeError('fetch failed')
    }
    vi.stubEnv('MARKET_CANDLES_BASE_URL', '')
    try {
      const error = await caught(createClient({ fetch: failing }).assets())
      expect(error).toBeInstanceOf(APIConnectionError)
      expect(error.message).toMatch(/placeholder.*set the client's baseUrl option \(or the MARKET_CANDLES_BASE_URL environment variable\)/)
      expect(calls).toBe(1)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  test('baseUrl defaults from MARKET_CANDLES_BASE_URL', async () => {
    vi.stubEnv('MARKET_CANDLES_BASE_URL', 'http://127.0.0.1:9/from-env')
    try {
      let url = ''
      const spy: typeof fetch = async (input) => {
        url = new Request(input).url
        throw new TypeError('fetch failed')
      }
      await caught(createClient({ fetch: spy, retry: false }).assets())
      expect(url).toBe('http://127.0.0.1:9/from-env/v1/assets')
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('a connection error keeps its cause readable, whatever was thrown, never the key', () => {
  const thrown = (value: () => unknown): typeof fetch => async () => {
    throw value()
  }
  test.each([
    ['an error of another realm', () => runInNewContext(`new TypeError("socket hang up ${KEY}")`), 'TypeError', 'socket hang up [redacted]'],
    ['a plain string', () => `connection refused by ${KEY}`, 'NonErrorCause', 'connection refused by [redacted]'],
    ['an object with a message', () => ({ message: 'reset', code: 'ECONNRESET' }), 'Error', 'reset'],
  ])('%s', async (_what, value, name, message) => {
    const client = target.client({ apiKey: KEY, fetch: thrown(value), retry: false })
    const error = await caught(client.exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(APIConnectionError)
    expect(error.cause).toBeInstanceOf(Error)
    expect(error.cause.name).toBe(name)
    expect(error.cause.message).toBe(message)
    expect(JSON.stringify(error.toJSON()) + String(error.stack) + String(error.cause.stack)).not.toContain(KEY)
  })
})

describe('walks: toArray needs a bound', () => {
  const PAIR = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' } as const

  test('without maxItems, and without both start and end, toArray rejects before any request', async () => {
    const client = target.client({ apiKey: KEY })
    for (const walk of [client.exchangeOhlcvCandles(PAIR), client.exchangeOhlcvCandles({ ...PAIR, start: '2026-05-01' }), client.exchangeOhlcvPages({ ...PAIR, end: '2026-05-01' })]) {
      const error = await caught(walk.toArray())
      expect(error).toBeInstanceOf(RangeError)
      expect(error.message).toMatch(/toArray\(\) needs a bound: pass \{ maxItems \}/)
    }
    expect(target.sent).toHaveLength(0)
  })

  test('with maxItems (of the walk or of toArray), or start and end, it collects exactly that; the cursor moves', async () => {
    const client = target.client({ apiKey: KEY })
    const latest = client.exchangeOhlcvCandles({ ...PAIR, limit: 10 }, { maxItems: 25 })
    const candles = await latest.toArray()
    expect(candles).toHaveLength(25)
    expect(candles[0]!.close_ts > candles[24]!.close_ts).toBe(true) // backward: newest first
    expect(await client.exchangeOhlcvCandles(PAIR).toArray({ maxItems: 3 })).toHaveLength(3)
    const day = client.exchangeOhlcvCandles({ ...PAIR, start: '2026-05-01T00:00:00Z', end: '2026-05-01T23:59:59Z' })
    const hours = await day.toArray()
    expect(hours.map((c) => c.close_ts)).toEqual(Array.from({ length: 24 }, (_, i) => `2026-05-01T${String(i).padStart(2, "0")}:00:00Z`))
    expect(day.cursor).toBeNull()
    expect(await caught(client.exchangeOhlcvCandles(PAIR).toArray({ max: 3 } as never))).toBeInstanceOf(TypeError)
  })
})
