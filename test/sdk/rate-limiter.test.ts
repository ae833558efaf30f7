import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { RateLimiter } from '../../src/index.js'
import { sdkViaHttp } from '../support/sdk-targets.js'

describe('the client-side rate limiter mirrors the service sliding window (D7)', () => {
  test('never more than perSecond sends in any window of one second plus the margin (property, fake clock)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 60 }), async (perSecond, gaps) => {
        let now = 0
        const limiter = new RateLimiter({ perSecond, marginMs: 25, now: () => now })
        const sent: number[] = []
        for (const gap of gaps) {
          now += gap
          // stand-in for sleeping: jump the clock by whatever the limiter asks
          for (let wait = limiter.delay(); wait > 0; wait = limiter.delay()) now += wait
          await limiter.acquire()
          sent.push(now)
        }
        for (let i = perSecond; i < sent.length; i++) expect(sent[i]! - sent[i - perSecond]!).toBeGreaterThanOrEqual(1025)
      }),
      { numRuns: 200 },
    )
  })

  test('a burst up to perSecond leaves at once; the next waits for the oldest to leave the window', () => {
    let now = 1000
    const limiter = new RateLimiter({ perSecond: 3, marginMs: 0, now: () => now })
    for (let i = 0; i < 3; i++) {
      expect(limiter.delay()).toBe(0)
      void limiter.acquire()
    }
    return Promise.resolve().then(async () => {
      await new Promise((r) => setTimeout(r, 0))
      expect(limiter.delay()).toBe(1000)
      now += 400
      expect(limiter.delay()).toBe(600)
    })
  })

  test('pause holds every request back', () => {
    let now = 0
    const limiter = new RateLimiter({ now: () => now })
    limiter.pause(1500)
    expect(limiter.delay()).toBe(1500)
    now = 1500
    expect(limiter.delay()).toBe(0)
  })

  test('an aborted caller leaves the line without taking a slot', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 1, marginMs: 0, now: () => now })
    await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ name: 'APIUserAbortError' })
    now = 1000
    expect(limiter.delay()).toBe(0)
  })
})

describe('one limiter shared by the clients of one account', () => {
  test('a burst of 50 calls from two clients (two keys of one account) sharing one limiter gets no 429', async () => {
    const target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const limiter = new RateLimiter()
      const statuses: number[] = []
      const hooks = { onResponse: (e: { status: number }) => statuses.push(e.status) }
      const a = target.client({ apiKey: 'demo-enterprise-key', rateLimit: limiter, retry: false, hooks })
      const b = target.client({ apiKey: 'demo-enterprise-key-2', rateLimit: limiter, retry: false, hooks })
      const params = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 1 } as const
      const started = performance.now()
      await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).exchangeOhlcv(params)))
      const seconds = (performance.now() - started) / 1000
      expect(statuses).toHaveLength(50)
      expect(statuses.filter((s) => s !== 200)).toEqual([])
      expect(target.service.usage().acct_enterprise).toBe(50)
      expect(seconds).toBeGreaterThan(4) // 50 at 10 per second: the limit was really applied
    } finally {
      await target.close()
    }
  }, 20_000)

  test('without the shared limiter the same burst draws 429s: the test above can fail', async () => {
    const target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const statuses: number[] = []
      const hooks = { onResponse: (e: { status: number }) => statuses.push(e.status) }
      const a = target.client({ apiKey: 'demo-enterprise-key', retry: false, hooks })
      const b = target.client({ apiKey: 'demo-enterprise-key-2', retry: false, hooks })
      const params = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 1 } as const
      await Promise.allSettled(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).exchangeOhlcv(params)))
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0)
    } finally {
      await target.close()
    }
  })

  test('catalog calls do not spend the limit (the service never counts them)', async () => {
    const target = await sdkViaHttp()
    try {
      let now = 0
      const limiter = new RateLimiter({ perSecond: 1, now: () => now })
      const client = target.client({ rateLimit: limiter })
      for (let i = 0; i < 5; i++) await client.assets()
      expect(limiter.delay()).toBe(0)
    } finally {
      await target.close()
    }
  })
})
