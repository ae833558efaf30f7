import { describe, expect, test } from 'vitest'
import { createMockService } from '../../../mocks/index.js'
import { createClock } from '../../../mocks/core/state/clock.js'
import { setupMockService } from '../../../mocks/node/index.js'

const PRO = { 'x-api-key': 'demo-pro-key' }
const latest = async (service: ReturnType<typeof createMockService>, interval = '1m') => {
  const res = await service.handle({ method: 'GET', url: `/v1/exchange_ohlcv?exchange=bitstamp&interval=${interval}&base=BTC&quote=USD&limit=1`, headers: PRO })
  return (res.body as { close_ts: string }[])[0]!.close_ts
}

describe('the clock starts at now and runs at N times wall speed', () => {
  test('a clock with a rate runs from now at that rate; without one it is fixed at now, or follows the system clock', () => {
    let wall = 1_000_000
    const running = createClock({ now: '2026-01-01T00:00:00Z', rate: 60, wall: () => wall })
    const fixed = createClock({ now: '2026-01-01T00:00:00Z', wall: () => wall })
    const system = createClock({ wall: () => wall })
    wall += 1000
    expect(new Date(running.now()).toISOString()).toBe('2026-01-01T00:01:00.000Z')
    expect(new Date(fixed.now()).toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(system.now()).toBe(wall)
    expect([running.rate, fixed.rate, system.rate]).toEqual([60, 0, 1])
  })

  test('the Date header states the reading the answer was decided by: the newest candle closed at most one interval before it, however fast the clock runs', async () => {
    // A year a second: 8.8 service hours a wall millisecond. Read twice (once to decide the answer,
    // again to stamp its Date), the clock ran on hours between the reads.
    const service = createMockService({ now: '2026-01-01T00:00:00Z', clockRate: 31_536_000, rateLimit: false })
    for (let i = 0; i < 20; i++) {
      const res = await service.handle({ method: 'GET', url: '/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1', headers: PRO })
      const newest = Date.parse((res.body as { close_ts: string }[])[0]!.close_ts)
      const date = Date.parse(res.headers.date!)
      expect(date - newest, `Date ${res.headers.date}, newest ${new Date(newest).toISOString()}`).toBeGreaterThanOrEqual(0)
      expect(date - newest, `Date ${res.headers.date}, newest ${new Date(newest).toISOString()}`).toBeLessThan(60_000)
    }
  })

  test('set moves a running clock and it runs on; advance shifts it; setRate changes the speed from the current reading; reset restarts it', () => {
    let wall = 0
    const clock = createClock({ now: '2026-01-01T00:00:00Z', rate: 60, wall: () => wall })
    clock.set('2026-02-01T00:00:00Z')
    wall += 500
    expect(new Date(clock.now()).toISOString()).toBe('2026-02-01T00:00:30.000Z')
    clock.advance(30_000)
    expect(new Date(clock.now()).toISOString()).toBe('2026-02-01T00:01:00.000Z')
    clock.setRate(0)
    wall += 10_000
    expect(new Date(clock.now()).toISOString()).toBe('2026-02-01T00:01:00.000Z')
    clock.setRate(2)
    wall += 1000
    expect(new Date(clock.now()).toISOString()).toBe('2026-02-01T00:01:02.000Z')
    clock.reset()
    expect([new Date(clock.now()).toISOString(), clock.rate]).toEqual(['2026-01-01T00:00:00.000Z', 60])
  })

  test('setting the system clock fixes it, as before rates existed', () => {
    let wall = 5000
    const clock = createClock({ wall: () => wall })
    clock.set('2026-01-01T00:00:00Z')
    wall += 1000
    expect(new Date(clock.now()).toISOString()).toBe('2026-01-01T00:00:00.000Z')
  })

  test('a rate that is negative, not finite or not a number is refused with a clear error', () => {
    for (const rate of [-1, Number.NaN, Infinity, '60' as unknown as number]) {
      expect(() => createClock({ rate })).toThrow(/clock rate must be a number from 0/)
      expect(() => createMockService({ clockRate: rate })).toThrow(/clock rate must be a number from 0/)
    }
    expect(() => createClock().setRate(-5)).toThrow(/clock rate/)
  })

  test('candles appear exactly when the clock passes their close time', async () => {
    const service = createMockService({ now: '2026-01-01T00:00:59.999Z' })
    expect(await latest(service)).toBe('2026-01-01T00:00:00Z')
    service.clock.advance(1)
    expect(await latest(service)).toBe('2026-01-01T00:01:00Z')
  })

  test('the Date header of every answer is the service clock', async () => {
    const service = createMockService({ now: '2026-01-01T12:34:56.789Z' })
    for (const url of ['/v1/assets', '/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD', '/v1/nothing']) {
      const res = await service.handle({ method: 'GET', url, headers: PRO })
      expect(res.headers.date, url).toBe('Thu, 01 Jan 2026 12:34:56 GMT')
    }
  })
})

test('through the MSW handlers, the Date header reads the service clock and browser code may read it (CORS)', async () => {
  const mock = setupMockService({ now: '2025-05-05T05:05:05Z' })
  const res = await mock.fetch(`${mock.baseUrl}/v1/assets`)
  expect(res.headers.get('date')).toBe('Mon, 05 May 2025 05:05:05 GMT')
  expect(res.headers.get('access-control-expose-headers')).toMatch(/\bDate\b/)
})

describe('publishDelayMs: a candle becomes visible only that long after its close', () => {
  test('the candle of 00:01 is hidden until 00:01 plus the delay, from the candles and the pairs coverage alike', async () => {
    const service = createMockService({ now: '2026-01-01T00:01:00Z', publishDelayMs: 5000 })
    expect(await latest(service)).toBe('2026-01-01T00:00:00Z')
    const coverage = async () => {
      const res = await service.handle({ method: 'GET', url: '/v1/exchange_pairs?exchange=bitstamp&interval=1m' })
      return (res.body as { base: string; quote: string; last_close_ts: string }[]).find((p) => p.base === 'BTC' && p.quote === 'USD')!.last_close_ts
    }
    expect(await coverage()).toBe('2026-01-01T00:00:00Z')
    service.clock.advance(4999)
    expect(await latest(service)).toBe('2026-01-01T00:00:00Z')
    service.clock.advance(1)
    expect(await latest(service)).toBe('2026-01-01T00:01:00Z')
    expect(await coverage()).toBe('2026-01-01T00:01:00Z')
  })

  test('a publish delay that is negative, fractional or over a day is refused', () => {
    for (const publishDelayMs of [-1, 1.5, 86_400_001, Number.NaN]) {
      expect(() => createMockService({ publishDelayMs })).toThrow(/publishDelayMs must be an integer from 0 to 86400000/)
    }
  })
})

test('each session has its own clock: running one at 60x leaves the root and the other sessions as they were', async () => {
  const service = createMockService({ now: '2026-01-01T00:00:00Z' })
  const a = service.session('a')
  const b = service.session('b')
  a.clock.setRate(60)
  const before = [service.clock.now(), b.clock.now()]
  await new Promise((r) => setTimeout(r, 50))
  expect(a.clock.now()).toBeGreaterThan(Date.parse('2026-01-01T00:00:02Z'))
  expect([service.clock.now(), b.clock.now()]).toEqual(before)
  expect([service.clock.rate, a.clock.rate, b.clock.rate]).toEqual([0, 60, 0])
})
