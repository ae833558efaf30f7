import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SERVICE_VARIANTS, type MockService, type ServiceVariantName } from '../../mocks/index.js'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { formatTimestamp } from '../../src/contract/index.js'
import {
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  createClient,
  type ClientOptions,
} from '../../src/index.js'
import { caught, collect } from '../support/sdk-targets.js'

/*
 * The SDK against every variant of the reference (SERVICE_VARIANTS), over the real HTTP server: one
 * server, one session per variant (each with its own rate windows and clock), so the variants run
 * side by side. What the SDK hands on must not depend on how the deployment fills the gaps of
 * interface.md (D13): the candles of every variant equal the reference's, in the canonical form.
 */

const HOUR = 3_600_000
const MIN = 60_000
const NOW = Date.parse('2026-01-01T00:00:00Z')
const iso = (t: number) => formatTimestamp(t)
const BTC_1H = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' } as const
const BTC_1M = { ...BTC_1H, interval: '1m' } as const
// An outage the walks cross: three hourly candles removed in every session.
const OUTAGE = { ...BTC_1H, from: iso(NOW - 30 * HOUR), to: iso(NOW - 28 * HOUR) }
const RANGE = { start: iso(NOW - 48 * HOUR), end: iso(NOW) }
const NAMES = Object.keys(SERVICE_VARIANTS) as ServiceVariantName[]

let server: RunningMockServer
/** The same service with a limit of 3 requests a second: a burst meets 429s even on a loaded machine. */
let strict: RunningMockServer
/** The reference's own answers, as it writes them (D1-D12): what every variant's SDK output must equal. */
let truth: MockService

beforeAll(async () => {
  ;[server, strict] = await Promise.all([startMockServer({ port: 0, now: NOW, clockRate: 0 }), startMockServer({ port: 0, now: NOW, clockRate: 0, rateLimit: { perSecond: 3 } })])
  truth = server.service.session('truth')
  truth.data.removeCandles(OUTAGE)
  for (const name of NAMES) server.service.session(name, { variant: name }).data.removeCandles(OUTAGE)
})
afterAll(() => Promise.all([server.close(), strict.close()]))

async function reference(url: string, key = 'demo-enterprise-key'): Promise<unknown> {
  const res = await truth.handle({ method: 'GET', url, headers: { 'x-api-key': key } })
  expect(res.status).toBe(200)
  return res.body
}

const clientOf = (name: string, options: ClientOptions = {}, on = server) => createClient({ baseUrl: `${on.url}/_sessions/${name}`, apiKey: 'demo-enterprise-key', ...options })
// Generous: the files around this one compute, and the first requests of a session build its index.
const WAITS = 60_000

describe.concurrent.each(NAMES)('the SDK against the variant %s, over HTTP', (name) => {
  const variant = { missingKey: 401, errorBodies: 'pydantic-v2', rateLimitHeaders: 'all', ...SERVICE_VARIANTS[name] }

  test('walks both ways across an outage hand on exactly the reference\'s candles, canonical close_ts, the outage named by walk.gaps()', async () => {
    const expected = await reference(`/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=${RANGE.start}&end=${RANGE.end}&limit=1000`)
    const client = clientOf(name)
    const forwardWalk = client.exchangeOhlcvCandles({ ...BTC_1H, ...RANGE, limit: 7 })
    const forward = await collect(forwardWalk)
    expect(forward).toEqual(expected)
    expect(forwardWalk.gaps().gaps).toEqual([{ from: OUTAGE.from, to: OUTAGE.to, missing: 3 }])
    const backward = await collect(client.exchangeOhlcvCandles({ ...BTC_1H, end: RANGE.end, limit: 7 }, { maxItems: forward.length }))
    expect(backward.reverse()).toEqual(expected)
    const pages = await collect(client.aggregatedOhlcvPages({ interval: '1h', base: 'BTC', quote: 'USD', ...RANGE, limit: 20 }))
    expect(pages.flatMap((p) => p.candles)).toEqual(await reference(`/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&start=${RANGE.start}&end=${RANGE.end}&limit=1000`))
  }, WAITS)

  test('the catalog reads as the reference\'s: exchanges (closing_date null when open), pairs with canonical first/last_close_ts', async () => {
    const client = clientOf(name)
    expect(await client.exchanges()).toEqual(await reference('/v1/exchanges'))
    expect(await client.assets()).toEqual(await reference('/v1/assets'))
    expect(await client.exchangePairs({ exchange: 'bitstamp', interval: '1h' })).toEqual(await reference('/v1/exchange_pairs?exchange=bitstamp&interval=1h'))
    expect(await client.aggregatedPairs({ interval: '1d' })).toEqual(await reference('/v1/aggregated_pairs?interval=1d'))
  }, WAITS)

  test('typed errors: the class of each status the deployment sends, with its detail, whatever the error body\'s form', async () => {
    const params = { ...BTC_1H, limit: 1 }
    const missing = await caught(clientOf(name, { apiKey: undefined, retry: false }).exchangeOhlcv(params))
    // A 401 or a 403 to a request sent without a key: the key is the cause (D13), whatever the status.
    expect(missing).toBeInstanceOf(AuthenticationError)
    expect(missing.status).toBe(variant.missingKey)
    expect(missing.message).toContain('Not authenticated')

    const unknownKey = await caught(clientOf(name, { apiKey: 'not-a-key', retry: false }).exchangeOhlcv(params))
    expect(unknownKey).toBeInstanceOf(AuthenticationError)
    expect(unknownKey.message).toContain('Invalid API key')

    const unknown = await caught(clientOf(name, { retry: false }).exchangeOhlcv({ ...params, exchange: 'nowhere' }))
    expect(unknown).toBeInstanceOf(NotFoundError)
    expect(unknown.message).toContain("Unknown exchange 'nowhere'")

    const depth = await caught(clientOf(name, { apiKey: 'demo-free-key', retry: false }).exchangeOhlcv({ ...params, start: iso(NOW - 60 * 24 * HOUR) }))
    expect(depth).toBeInstanceOf(PermissionDeniedError)
    expect(depth.message).toContain("history depth of plan 'free'")

    // A 422 the client could not foresee (its own checks pass): the deployment refuses a repeated limit.
    const twice: typeof fetch = (input, init) => fetch(`${new Request(input, init).url}&limit=2`, init)
    const refused = await caught(clientOf(name, { retry: false, fetch: twice }).exchangeOhlcv(params))
    expect(refused).toBeInstanceOf(UnprocessableEntityError)
    expect(refused.status).toBe(422)
    if (variant.errorBodies === 'pydantic-v2' || variant.errorBodies === 'pydantic-v1') expect(refused.issues.map((i: { loc: unknown[] }) => i.loc.at(-1))).toEqual(['limit'])
    expect(refused.message).toContain('limit')
  }, WAITS)

  test('the rate limit: a burst past it is a RateLimitError (retryAfter when Retry-After is sent); a default client then walks 10 pages to the end at 3 requests a second', async () => {
    const session = `${name}-rate`
    strict.service.session(session, { variant: name }).data.removeCandles(OUTAGE)
    const bare = clientOf(session, { retry: false, rateLimit: false }, strict)
    const burst = await Promise.allSettled(Array.from({ length: 12 }, () => bare.exchangeOhlcv({ ...BTC_1H, limit: 1 })))
    const limited = burst.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)
    expect(limited.length).toBeGreaterThanOrEqual(1)
    for (const error of limited) {
      expect(error).toBeInstanceOf(RateLimitError)
      expect(error.retryAfter).toBe(variant.rateLimitHeaders === 'none' ? undefined : 1)
    }
    // Right after the burst, at 3 requests a second: a client that learns nothing from headers (with
    // 'retry-after' and 'none' none are sent) must still finish.
    const start = iso(NOW - 40 * HOUR)
    const candles = await collect(clientOf(session, {}, strict).exchangeOhlcvCandles({ ...BTC_1H, start, end: RANGE.end, limit: 4 }))
    expect(candles).toEqual(await reference(`/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=${start}&end=${RANGE.end}&limit=1000`))
  }, WAITS)

  test('a follow on the deployment\'s running clock (120x): the history, then each new candle once, no gap, no duplicate, canonical close_ts', async () => {
    const session = server.service.session(`${name}-follow`, { variant: name })
    session.clock.setRate(120)
    const from = session.clock.now() - (session.clock.now() % MIN) - 5 * MIN
    const end = from + 9 * MIN
    const live = clientOf(`${name}-follow`).exchangeOhlcvFollow({ ...BTC_1M, start: iso(from), end: iso(end) }, { now: () => session.clock.now() })
    const seen: string[] = []
    for await (const candle of live) {
      seen.push(candle.close_ts)
      expect(candle.flag).not.toBeUndefined()
    }
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => iso(from + i * MIN)))
    expect(live.ended).toMatchObject({ reason: 'end' })
  }, WAITS)
})
