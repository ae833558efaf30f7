// The SDK's own checks, one plain ES module for every runtime of the matrix (test/runtimes.test.ts):
// Node, Bun and Deno import it (run-cli.mjs), workerd and the browsers get it bundled by esbuild.
// It uses the built package, as an app would, against `market-candles serve` over HTTP, in a
// session of its own that the test arranged first (a running clock, a hanging fault for ETH).
// Each check resolves to { ok, detail }; runChecks never throws.
import {
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  InvalidParamsError,
  NotFoundError,
  PermissionDeniedError,
  createClient,
  resample,
} from '../../dist/index.js'

const PAIR = { exchange: 'bitstamp', base: 'BTC', quote: 'USD' }

function expect(condition, detail) {
  if (!condition) throw new Error(detail)
}

const ascending = (list) => list.every((ts, i) => i === 0 || ts > list[i - 1])
const descending = (list) => list.every((ts, i) => i === 0 || ts < list[i - 1])

async function rejection(promise) {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('resolved, expected a rejection')
}

/**
 * @param {{ baseUrl: string, clock: { now: number, wall: number, rate: number } }} config
 *   baseUrl: the session's base URL; clock: the session's clock was set to `now` (epoch ms) at wall
 *   time `wall` (Date.now() of the test process, the same machine), running `rate` times wall speed.
 */
export async function runChecks(config) {
  const { baseUrl, clock } = config
  const client = createClient({ apiKey: 'demo-enterprise-key', baseUrl, retry: { limit: 0 } })

  const checks = {
    async catalog() {
      const exchanges = await client.exchanges()
      const assets = await client.assets()
      const pairs = await client.exchangePairs({ exchange: 'bitstamp', interval: '1h' })
      expect(assets.length === 11, `11 assets, got ${assets.length}`)
      expect(pairs.length > 0, 'bitstamp has 1h pairs')
      return `${exchanges.length} exchanges, ${assets.length} assets, ${pairs.length} bitstamp 1h pairs`
    },

    async forwardWalkAndCursor() {
      const range = { ...PAIR, interval: '1h', start: '2026-04-01T00:00:00Z', end: '2026-04-05T23:00:00Z', limit: 50 }
      const whole = []
      for await (const c of client.exchangeOhlcvCandles(range)) whole.push(c.close_ts)
      const got = []
      const first = client.exchangeOhlcvCandles(range, { maxItems: 70 })
      for await (const c of first) got.push(c.close_ts)
      const saved = JSON.stringify(first.cursor)
      for await (const c of client.resumeCandles(JSON.parse(saved))) got.push(c.close_ts)
      expect(whole.length === 120, `120 hourly candles, got ${whole.length}`)
      expect(ascending(whole), 'ascending close_ts')
      expect(got.join() === whole.join(), `stopped at 70 and resumed from the JSON cursor: ${got.length} candles, not the uninterrupted walk's`)
      return `${whole.length} candles ascending; 70 + ${got.length - 70} through the cursor, no gap, no duplicate`
    },

    async backwardWalkAndCursor() {
      const series = { ...PAIR, interval: '1m', end: '2026-06-01T00:00:00Z', limit: 100 }
      const walk = client.exchangeOhlcvCandles(series, { maxItems: 150 })
      const got = []
      for await (const c of walk) got.push(c.close_ts)
      const saved = JSON.stringify(walk.cursor)
      const more = await client.resumeCandles(JSON.parse(saved), { maxItems: 50 }).toArray()
      const all = [...got, ...more.map((c) => c.close_ts)]
      expect(got.length === 150 && got[0] === '2026-06-01T00:00:00Z', `150 candles back from the end, got ${got.length} from ${got[0]}`)
      expect(descending(all) && all.length === 200, `newest first across the cursor, no duplicate: ${all.length}`)
      return `150 newest first, then 50 more through the cursor, down to ${all.at(-1)}`
    },

    async typedErrors() {
      const free = createClient({ apiKey: 'demo-free-key', baseUrl, retry: { limit: 0 } })
      const revoked = createClient({ apiKey: 'demo-revoked-key', baseUrl, retry: { limit: 0 } })
      const denied = await rejection(free.aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD', limit: 1 }))
      const missing = await rejection(client.exchangeOhlcv({ exchange: 'nowhere', interval: '1h', base: 'BTC', quote: 'USD', limit: 1 }))
      const unauthenticated = await rejection(revoked.exchangeOhlcv({ ...PAIR, interval: '1h', limit: 1 }))
      const invalid = await rejection(client.exchangeOhlcv({ ...PAIR, interval: '1h', limit: 0 }))
      expect(denied instanceof PermissionDeniedError && denied.status === 403, `403 PermissionDeniedError, got ${denied}`)
      expect(missing instanceof NotFoundError && missing.status === 404, `404 NotFoundError, got ${missing}`)
      expect(unauthenticated instanceof AuthenticationError && unauthenticated.status === 401, `401 AuthenticationError, got ${unauthenticated}`)
      expect(invalid instanceof InvalidParamsError, `InvalidParamsError before sending, got ${invalid}`)
      const leaked = [denied, missing, unauthenticated].some((e) => JSON.stringify(e).includes('demo-') || String(e.message).includes('demo-'))
      expect(!leaked, 'no error carries the API key')
      return 'PermissionDeniedError 403, NotFoundError 404, AuthenticationError 401, InvalidParamsError'
    },

    async timeoutAndAbort() {
      // The test arranged a `hang` fault for every ETH request of this session.
      const hanging = { ...PAIR, base: 'ETH', interval: '1h', limit: 1 }
      const started = Date.now()
      const timedOut = await rejection(client.exchangeOhlcv(hanging, { timeout: 300, maxRetries: 0 }))
      const tookMs = Date.now() - started
      expect(timedOut instanceof APITimeoutError, `APITimeoutError, got ${timedOut}`)
      expect(tookMs >= 250 && tookMs < 10_000, `timed out after ${tookMs} ms, not about 300`)
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 100)
      const aborted = await rejection(client.exchangeOhlcv(hanging, { signal: controller.signal, timeout: false }))
      expect(aborted instanceof APIUserAbortError, `APIUserAbortError on abort, got ${aborted}`)
      const before = await rejection(client.exchangeOhlcv(hanging, { signal: AbortSignal.abort() }))
      expect(before instanceof APIUserAbortError, `APIUserAbortError for an aborted signal, got ${before}`)
      return `APITimeoutError after ${tookMs} ms; APIUserAbortError mid-request and before sending`
    },

    async followRunningClock() {
      // The session's clock runs `rate` times wall speed from `now`: the follow reads it through `now`.
      const serviceNow = () => clock.now + (Date.now() - clock.wall) * clock.rate
      const start = new Date(Math.floor(serviceNow() / 60_000) * 60_000 - 2 * 60_000).toISOString()
      const live = client.exchangeOhlcvFollow({ ...PAIR, interval: '1m', start }, { now: serviceNow, signal: AbortSignal.timeout(20_000) })
      const got = []
      {
        for await (const c of live) {
          got.push(c.close_ts)
          if (got.length === 5) break
        }
      }
      const minutes = got.map((ts) => Date.parse(ts))
      expect(got.length === 5, `5 candles, got ${got.length}`)
      expect(minutes.every((t, i) => i === 0 || t - minutes[i - 1] === 60_000), `consecutive minutes: ${got.join(' ')}`)
      expect(minutes[4] > Date.parse(start) + 3 * 60_000, `the last ones closed after the follow started: ${got.join(' ')}`)
      return `${got[0]} .. ${got[4]}: history, then candles as they closed`
    },

    async resampleHours() {
      const hours = client.exchangeOhlcvCandles({ ...PAIR, interval: '1h', start: '2026-03-02T01:00:00Z', end: '2026-03-04T00:00:00Z' })
      const days = []
      for await (const c of resample(hours, '4h')) days.push(c)
      expect(days.length === 12, `12 four-hour candles from 48 hours, got ${days.length}`)
      expect(days.every((d) => d.complete), 'every bucket complete')
      const first = days[0]
      expect(first.high >= first.open && first.high >= first.close && first.low <= first.open, 'high and low bound the open and close')
      return `${days.length} 4h candles from 1h, complete, ${first.close_ts} first`
    },
  }

  const results = {}
  for (const [name, check] of Object.entries(checks)) {
    const started = Date.now()
    try {
      results[name] = { ok: true, detail: await check(), ms: Date.now() - started }
    } catch (error) {
      // V8's stack starts with the message; Firefox's and Safari's do not.
      const text = String(error)
      const stack = String(error?.stack ?? '')
      results[name] = { ok: false, detail: stack.includes(text) ? stack : `${text}\n${stack}`, ms: Date.now() - started }
    }
  }
  return results
}
