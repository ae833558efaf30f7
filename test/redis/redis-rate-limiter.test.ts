/*
 * The Redis rate limiter against a real redis-server (Debian's package, started on a free port
 * without persistence, stopped by PID) and the reference server over HTTP (contract: rate-limit).
 * Each limiter has its own Redis connection, as a worker process would. Without redis-server this
 * file is skipped, saying how to install it.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createClient } from '../../src/index.js'
import { createRedisRateLimiter, RedisLimiterError, type RedisRateLimiter } from '../../src/redis/index.js'
import { startMockServer } from '../../mocks/server/index.js'
import { hasRedis, REDIS_SKIP_NOTE, startRedis, type RedisServer } from '../support/redis-server.js'
import { ROUND_TRIP_AGE_MS } from '../../src/rate-limit/aging-minimum.js'
import { RedisSlotStore } from '../../src/redis/redis-slot-store.js'

const PASSWORD = 'pw-s3cret-7f1c'
const KEYS = ['acct-key-a', 'acct-key-b', 'acct-key-c']
const POINT = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 2 } as const
// 1m candles in pages of 100: 20 pages.
const RANGE = { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2026-05-01T00:00:00Z', end: '2026-05-02T09:20:00Z', limit: 100 } as const

let account = 0
/** A Redis account of its own, for tests that never reach the service. */
const newAccount = () => `acct-test-${process.pid}-${++account}`
/** Tests that reach the service share its account's window, as workers of one account would: one Redis account, named after it. */
const SERVICE_ACCOUNT = `acct_enterprise-${process.pid}`

describe.skipIf(!hasRedis)(`the Redis rate limiter against a real redis-server${hasRedis ? '' : ` (${REDIS_SKIP_NOTE})`}`, () => {
  let redis: RedisServer
  let service: Awaited<ReturnType<typeof startMockServer>>
  const limiters: RedisRateLimiter[] = []
  const limiter = (options: Partial<Parameters<typeof createRedisRateLimiter>[0]> & { account: string }) => {
    const l = createRedisRateLimiter({ url: redis.url, timeoutMs: 1000, ...options })
    limiters.push(l)
    return l
  }

  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD })
    service = await startMockServer({
      port: 0,
      latency: 20,
      now: '2026-06-01T00:00:00Z',
      keys: [...KEYS.map((key) => ({ key, account: 'acct_enterprise' })), { key: 'demo-pro-key', account: 'acct_pro' }],
    })
  })
  afterAll(async () => {
    await Promise.all(limiters.map((l) => l.close()))
    await service?.close()
    await redis?.stop()
  })

  // Run again if it fails (the limiter in Redis knows the slots the last try took): the service
  // counts a request when it arrives, and in the full suite on two cores one arrived more than the
  // limiter's largest margin (100 ms) after it was sent, beside the next second's requests (a fresh
  // clone, 2026-11-27; never alone, nor under five CPU burners). A limiter that overruns fails every try.
  test('three workers with their own connections keep the account within its rate together: every call answered 200, none 429, each counted once', { timeout: 30_000, retry: 2 }, async () => {
    const acct = SERVICE_ACCOUNT
    const usageBefore = service.service.usage().acct_enterprise ?? 0
    const statuses: number[] = []
    const clients = KEYS.map((apiKey) =>
      createClient({ apiKey, baseUrl: service.url, retry: false, rateLimit: limiter({ account: acct }), hooks: { onResponse: (e) => statuses.push(e.status) } }),
    )
    const started = performance.now()
    // Every call settled before anything is checked: a second try starts with no call in flight.
    const results = await Promise.allSettled(clients.flatMap((c) => Array.from({ length: 12 }, () => c.exchangeOhlcv(POINT))))
    const seconds = (performance.now() - started) / 1000
    expect(results).toHaveLength(36)
    expect(results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []))).toEqual([])
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    expect((service.service.usage().acct_enterprise ?? 0) - usageBefore).toBe(36)
    // 36 calls at 10 per second: the first 10 at once, then about 10 a second.
    expect(seconds).toBeGreaterThan(2.5)
  })

  test('a request is cold (held from its answer) only when its worker must open a connection while no warm request of the account has been answered', async () => {
    const acct = newAccount()
    const l = limiter({ account: acct })
    const ok = { status: 200, headers: {} }
    const first = await l.acquire()
    const second = await l.acquire() // the first still in flight: a second connection, cold
    first(ok)
    second(ok)
    const third = await l.acquire() // two connections open, none busy: reused, warm
    third(ok)
    // A third connection, with a warm answer in the window: its slow outbound trip is in its round trip.
    const more = [await l.acquire(), await l.acquire(), await l.acquire()]
    for (const release of more) release(ok)
    // Another worker's first request, on a new connection, after the account's warm answer.
    const other = limiter({ account: acct })
    ;(await other.acquire())(ok)
    const reader = new Redis(redis.url)
    try {
      const state = JSON.parse((await reader.get(`market-candles:rate-limit:${acct}`))!) as { s: Array<[string, number, number]> }
      expect(state.s.map((slot) => slot[2])).toEqual([1, 1, 0, 0, 0, 0, 0])
    } finally {
      reader.disconnect()
    }
  })

  test('the smallest round trip the workers count with ages, though workers keep the key alive: after 2 × ROUND_TRIP_AGE_MS of slow round trips only, a fast one seen before no longer counts', { timeout: 20_000 }, async () => {
    const acct = newAccount()
    const fast = limiter({ account: acct })
    const ok = { status: 200, headers: {} }
    for (let i = 0; i < 4; i++) (await fast.acquire())(ok)
    const reader = new Redis(redis.url)
    const store = new RedisSlotStore(reader, `market-candles:rate-limit:${acct}`)
    try {
      // A fleet behind a faster path ran on the account: its round trips of a few ms are learnt.
      expect((await store.peek()).minRoundTrip).toBeLessThan(50)
      // Then a fleet behind a slower path (150 ms), the key never idle.
      const slow = limiter({ account: acct })
      const until = performance.now() + 2 * ROUND_TRIP_AGE_MS + 300
      while (performance.now() < until) {
        const release = await slow.acquire()
        await new Promise((r) => setTimeout(r, 150))
        release(ok)
      }
      await new Promise((r) => setTimeout(r, 50)) // the last answer's COMPLETE runs in the background
      expect((await store.peek()).minRoundTrip).toBeGreaterThanOrEqual(140)
    } finally {
      reader.disconnect()
    }
  })

  test('concurrent windows of two workers, one account: the whole range arrives in order, no 429', async () => {
    const acct = SERVICE_ACCOUNT
    const statuses: number[] = []
    const walks = KEYS.slice(0, 2).map(async (apiKey) => {
      const client = createClient({ apiKey, baseUrl: service.url, retry: false, rateLimit: limiter({ account: acct }), hooks: { onResponse: (e) => statuses.push(e.status) } })
      return client.exchangeOhlcvCandles({ ...RANGE, end: '2026-05-01T10:00:00Z' }, { concurrency: 4 }).toArray()
    })
    const [a, b] = await Promise.all(walks)
    expect(a!.length).toBe(601) // 10 hours of 1m candles, both ends included
    expect(b!.map((c) => c.close_ts)).toEqual(a!.map((c) => c.close_ts))
    expect(statuses.filter((s) => s !== 200)).toEqual([])
  }, 30_000)

  test('a 429 seen by one worker pauses every worker of the account until its Retry-After', async () => {
    const acct = newAccount()
    const a = limiter({ account: acct })
    const b = limiter({ account: acct })
    const release = await a.acquire()
    release({ status: 429, headers: { 'retry-after': '2' } })
    await new Promise((r) => setTimeout(r, 50)) // the pause is written in the background
    const started = performance.now()
    ;(await b.acquire())({ status: 200, headers: {} })
    expect(performance.now() - started).toBeGreaterThan(1800)
  }, 15_000)

  test('a worker that dies holding slots shrinks the account for a few seconds only', async () => {
    const acct = newAccount()
    const dying = createRedisRateLimiter({ url: redis.url, account: acct })
    for (let i = 0; i < 10; i++) await dying.acquire() // ten requests in flight, never answered
    await dying.close() // dies: no more lease renewals, connection gone
    const other = limiter({ account: acct })
    const started = performance.now()
    ;(await other.acquire())({ status: 200, headers: {} })
    const waited = performance.now() - started
    // Its slots' leases (3 s) lapse, then one window.
    expect(waited).toBeGreaterThan(2500)
    expect(waited).toBeLessThan(6000)
  }, 15_000)

  test('a wrong password: a clear error within the time limit, the password nowhere in it', async () => {
    const wrong = 'not-the-pw-91bd'
    const l = createRedisRateLimiter({ url: redis.url.replace(PASSWORD, wrong), account: newAccount(), timeoutMs: 1000 })
    limiters.push(l)
    const started = performance.now()
    const error = await l.acquire().then(() => undefined, (e: unknown) => e)
    expect(performance.now() - started).toBeLessThan(3000)
    expect(error).toBeInstanceOf(RedisLimiterError)
    const e = error as RedisLimiterError
    expect(e.message).toMatch(/refused the credentials/)
    expect(e.message).toContain(`127.0.0.1:${redis.port}`)
    const everything = `${e.message} ${e.stack} ${String(e.cause)} ${JSON.stringify(e)} ${JSON.stringify(Object.entries(e))}`
    expect(everything).not.toContain(wrong)
    expect(everything).not.toContain(PASSWORD)
  }, 15_000)

  test('Redis unreachable: a clear error within the time limit', async () => {
    const l = createRedisRateLimiter({ url: `redis://:${PASSWORD}@127.0.0.1:1`, account: newAccount(), timeoutMs: 800 })
    limiters.push(l)
    const started = performance.now()
    const error = (await l.acquire().catch((e: unknown) => e)) as Error
    expect(performance.now() - started).toBeLessThan(3000)
    expect(error).toBeInstanceOf(RedisLimiterError)
    expect(error.message).toMatch(/nothing listens there|did not answer|connection to Redis is lost/)
    expect(error.message).not.toContain(PASSWORD)
  }, 15_000)

  test('a slow Redis (SIGSTOP): each call fails within the time limit, and works again once Redis answers', async () => {
    const l = limiter({ account: newAccount(), timeoutMs: 700 })
    ;(await l.acquire())({ status: 200, headers: {} })
    redis.pause()
    try {
      const started = performance.now()
      const error = (await l.acquire().catch((e: unknown) => e)) as Error
      const took = performance.now() - started
      expect(error).toBeInstanceOf(RedisLimiterError)
      expect(error.message).toMatch(/did not answer within 700 ms/)
      expect(took).toBeGreaterThan(600)
      expect(took).toBeLessThan(2500)
    } finally {
      redis.resume()
    }
    ;(await l.acquire())({ status: 200, headers: {} })
  }, 15_000)

  test('Redis killed mid-walk: the walk fails with a clear error, and resumed from its cursor after a restart no candle is lost or duplicated', async () => {
    const reference = await createClient({ apiKey: 'demo-pro-key', baseUrl: service.url }).exchangeOhlcvCandles(RANGE).toArray()
    const acct = SERVICE_ACCOUNT
    const client = createClient({ apiKey: KEYS[0], baseUrl: service.url, rateLimit: limiter({ account: acct }) })
    const got: string[] = []
    let cursor: unknown
    let failure: unknown
    const started = performance.now()
    let failedAfterMs = 0
    try {
      for await (const page of client.exchangeOhlcvPages(RANGE, { concurrency: 1 })) {
        got.push(...page.candles.map((c) => c.close_ts))
        cursor = page.cursor
        if (got.length === 500) await redis.kill()
      }
    } catch (error) {
      failure = error
      failedAfterMs = performance.now() - started
    }
    expect(failure).toBeInstanceOf(RedisLimiterError)
    expect((failure as Error).message).not.toContain(PASSWORD)
    expect(failedAfterMs).toBeLessThan(10_000)
    expect(got.length).toBe(500)
    await redis.restart()
    // The same limiter reconnects by itself.
    const resumed = createClient({ apiKey: KEYS[0], baseUrl: service.url, rateLimit: limiters.at(-1)! })
    for await (const page of resumed.resumePages(cursor as never)) got.push(...page.candles.map((c) => c.close_ts))
    expect(got).toEqual(reference.map((c) => c.close_ts))
  }, 30_000)

  test("onRedisError 'fallback': Redis killed mid-walk, the walk goes on limited in-process with a logged warning, every candle exactly once", async () => {
    const reference = await createClient({ apiKey: 'demo-pro-key', baseUrl: service.url }).exchangeOhlcvCandles(RANGE).toArray()
    const warnings: string[] = []
    const l = limiter({ account: SERVICE_ACCOUNT, onRedisError: 'fallback', logger: { warn: (m) => warnings.push(m) } })
    const client = createClient({ apiKey: KEYS[1], baseUrl: service.url, rateLimit: l })
    const got: string[] = []
    try {
      for await (const page of client.exchangeOhlcvPages(RANGE, { concurrency: 1 })) {
        got.push(...page.candles.map((c) => c.close_ts))
        if (got.length === 300) await redis.kill()
      }
    } finally {
      if (redis.pid !== undefined) await redis.restart().catch(() => {})
    }
    expect(got).toEqual(reference.map((c) => c.close_ts))
    expect(warnings.length).toBeGreaterThanOrEqual(1)
    expect(warnings[0]).toMatch(/limiting this process alone/)
    expect(warnings.join('\n')).not.toContain(PASSWORD)
  }, 30_000)
})

describe('createRedisRateLimiter refuses bad options with a clear error (no Redis needed)', () => {
  test.each([
    [null, /createRedisRateLimiter options must be an object/],
    [{ account: 'a' }, /exactly one of url and client/],
    [{ url: 'http://:pw-zz@h:1', account: 'a' }, /redis:\/\/ or rediss:\/\//],
    [{ url: 'redis://:pw-zz@127.0.0.1:1' }, /account must be a non-empty string/],
    [{ url: 'redis://:pw-zz@127.0.0.1:1', account: 'a', perSecond: 0 }, /perSecond must be a positive integer/],
    [{ url: 'redis://:pw-zz@127.0.0.1:1', account: 'a', onRedisError: 'ignore' }, /onRedisError must be 'error' or 'fallback'/],
    [{ url: 'redis://:pw-zz@127.0.0.1:1', account: 'a', acount: 'b' }, /Unknown option 'acount'/],
  ])('%j', (options, message) => {
    let error: unknown
    try {
      createRedisRateLimiter(options as never)
    } catch (e) {
      error = e
    }
    expect(String(error)).toMatch(message)
    expect(String(error)).not.toContain('pw-zz')
  })
})
