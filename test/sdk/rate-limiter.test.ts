import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { RateLimiter } from '../../src/index.js'
import { sdkViaHttp } from '../support/sdk-targets.js'

describe('the client-side rate limiter mirrors the service sliding window (D7)', () => {
  /**
   * Simulates requests one after another on a fake clock: each leaves when the limiter lets it,
   * reaches the service after an outbound delay, and comes back after the service's time and the
   * return trip. Returns when the service saw each request arrive.
   */
  async function simulate(perSecond: number, trips: Array<{ idle: number; out: number; server: number; back: number }>) {
    let now = 0
    const limiter = new RateLimiter({ perSecond, marginMs: 25, now: () => now })
    const arrivals: number[] = []
    for (const trip of trips) {
      now += trip.idle
      // stand-in for sleeping: jump the clock by whatever the limiter asks
      for (let wait = limiter.delay(); wait > 0; wait = limiter.delay()) {
        // every earlier request has come back, so nothing can be in flight: never wait forever
        if (wait === Infinity) throw new Error('limiter waits for a request that already came back')
        now += wait
      }
      const release = await limiter.acquire()
      arrivals.push(now + trip.out)
      now += trip.out + trip.server + trip.back
      release()
    }
    return arrivals
  }

  test('the service never sees perSecond + 1 arrivals within one second, whatever the delays (property)', async () => {
    const trip = fc.record({ idle: fc.integer({ min: 0, max: 300 }), out: fc.integer({ min: 0, max: 120 }), server: fc.integer({ min: 0, max: 400 }), back: fc.integer({ min: 0, max: 50 }) })
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 40 }), fc.array(trip, { minLength: 1, maxLength: 60 }), async (perSecond, baseOut, trips) => {
        // the estimate relies on outbound trips no faster than the fastest seen: give them a common floor
        const arrivals = await simulate(perSecond, trips.map((t) => ({ ...t, out: baseOut + (t.out % 20) })))
        for (let i = perSecond; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - perSecond]!).toBeGreaterThanOrEqual(1000)
      }),
      { numRuns: 300 },
    )
  })

  test('a slow server does not slow the limiter: with 250 ms answers it still sends 10 per 1.025 s', async () => {
    const trips = Array.from({ length: 41 }, () => ({ idle: 0, out: 1, server: 250, back: 1 }))
    // sequential requests cannot reach the rate; run 10 at a time, as a concurrent walk does
    let now = 0
    const limiter = new RateLimiter({ now: () => now })
    const sent: number[] = []
    const inFlight: Array<{ done: number; release: () => void }> = []
    for (const trip of trips) {
      for (;;) {
        inFlight.sort((a, b) => a.done - b.done)
        while (inFlight.length > 0 && inFlight[0]!.done <= now) inFlight.shift()!.release()
        const wait = limiter.delay()
        if (wait === 0) break
        now = Math.min(wait === Infinity ? Infinity : now + wait, inFlight[0]?.done ?? Infinity)
      }
      const release = await limiter.acquire()
      sent.push(now)
      inFlight.push({ done: now + trip.out + trip.server + trip.back, release })
    }
    // the first window is cold (counted from completion); afterwards the pace is the full rate
    const steady = (sent[40]! - sent[20]!) / 20
    expect(steady).toBeLessThanOrEqual(102.5 + 1)
    expect(steady).toBeGreaterThanOrEqual(102.5 - 1)
  })

  test('a fresh limiter sends half a window first; once those answers are in, a burst up to perSecond leaves, and the next waits until one second after the oldest came back', async () => {
    let now = 1000
    const limiter = new RateLimiter({ perSecond: 4, marginMs: 0, now: () => now })
    const probe = [await limiter.acquire(), await limiter.acquire()]
    expect(limiter.delay()).toBe(Infinity) // half the window is out: wait for what the service says
    now += 40
    probe[0]!()
    expect(limiter.delay()).toBe(1000) // still probing: the next waits for the oldest (cold: from its completion)
    probe[1]!()
    expect(limiter.share).toBe(4) // answers without RateLimit-* headers: nobody else to make room for
    const releases = []
    for (let i = 0; i < 2; i++) {
      expect(limiter.delay()).toBe(0)
      releases.push(await limiter.acquire())
    }
    expect(limiter.delay()).toBe(1000) // four in the window; the oldest came back at 1040
    now += 400
    expect(limiter.delay()).toBe(600)
  })

  test('pause holds every request back', () => {
    let now = 0
    const limiter = new RateLimiter({ now: () => now })
    limiter.pause(1500)
    expect(limiter.delay()).toBe(1500)
    now = 1500
    expect(limiter.delay()).toBe(0)
  })

  test('an aborted caller leaves the line without taking a slot, also while waiting for a request in flight', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 1, marginMs: 0, now: () => now })
    const release = await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ name: 'APIUserAbortError' })
    release()
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
