import { describe, expect, test } from 'vitest'
import { createMockService, type Fault } from '../../../mocks/index.js'
import { setupMockService } from '../../../mocks/node/index.js'

const NOW = '2026-06-01T00:00:00Z'
const get = (url: string, key?: string) => ({ method: 'GET', url, headers: key ? { 'x-api-key': key } : {} })
const ohlcv = (interval: string, key = 'demo-pro-key') => get(`/v1/exchange_ohlcv?exchange=bitstamp&interval=${interval}&base=BTC&quote=USD&limit=1`, key)

describe('faults, version 2: triggers', () => {
  test('after M matching requests: the first M pass, the next `times` are faulted', async () => {
    const service = createMockService({ now: NOW })
    service.faults.add({ path: '/v1/assets', status: 503, after: 2, times: 2 })
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await service.handle(get('/v1/assets'))).status)
    expect(statuses).toEqual([200, 200, 503, 503, 200, 200])
  })

  test('a probability with a seed: the same seed, the same failures; unlimited times unless given', async () => {
    const run = async (seed: number) => {
      const service = createMockService({ now: NOW })
      service.faults.add({ path: '/v1/assets', status: 500, probability: 0.3, seed })
      const out = []
      for (let i = 0; i < 60; i++) out.push((await service.handle(get('/v1/assets'))).status === 500 ? 1 : 0)
      return out.join('')
    }
    const a = await run(42)
    expect(await run(42)).toBe(a)
    expect(await run(43)).not.toBe(a)
    const failures = [...a].filter((c) => c === '1').length
    expect(failures).toBeGreaterThan(5)
    expect(failures).toBeLessThan(35)
    const service = createMockService()
    service.faults.add({ probability: 0.5 })
    expect(service.faults.list()[0]!.times).toBeNull()
  })

  test('a match on query values (only interval=1m) or on the account', async () => {
    const service = createMockService({ now: NOW })
    service.faults.add({ status: 502, query: { interval: '1m' }, times: 5 })
    expect((await service.handle(ohlcv('1h'))).status).toBe(200)
    expect((await service.handle(ohlcv('1m'))).status).toBe(502)
    service.faults.clear()
    service.faults.add({ status: 503, account: 'acct_enterprise', times: 5 })
    expect((await service.handle(ohlcv('1h'))).status).toBe(200)
    expect((await service.handle(ohlcv('1h', 'demo-enterprise-key'))).status).toBe(503)
    // The account of the key: a request without one never matches.
    expect((await service.handle(get('/v1/assets'))).status).toBe(200)
    expect(service.requests({ status: 503 })[0]).toMatchObject({ account: 'acct_enterprise', fault: { kind: 'status' } })
  })

  test('latency: fixed, uniform or lognormal, seeded; the service still answers and counts', async () => {
    const service = createMockService({ now: NOW })
    service.faults.add({ kind: 'latency', latency_ms: 60 })
    const t0 = performance.now()
    const res = await service.handle(ohlcv('1h'))
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55)
    expect(res.status).toBe(200)
    expect(service.usage().acct_pro).toBe(1)
    expect(service.requests()[0]!.fault).toEqual({ id: 'fault-1', kind: 'latency' })
    const delays = (latency: Fault['latency_ms'], seed: number) => {
      const s = createMockService()
      s.faults.add({ kind: 'latency', latency_ms: latency, seed, times: 50 })
      return Array.from({ length: 50 }, () => s.faults.take({ path: '/', query: {}, account: undefined })!.delayMs!)
    }
    const uniform = delays({ dist: 'uniform', min_ms: 10, max_ms: 20 }, 7)
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(10)
    expect(Math.max(...uniform)).toBeLessThanOrEqual(20)
    expect(delays({ dist: 'uniform', min_ms: 10, max_ms: 20 }, 7)).toEqual(uniform)
    const lognormal = delays({ dist: 'lognormal', median_ms: 100, sigma: 0.5 }, 3).sort((x, y) => x - y)
    expect(lognormal[25]!).toBeGreaterThan(60)
    expect(lognormal[25]!).toBeLessThan(160)
    expect(lognormal[0]!).toBeGreaterThan(0)
  })

  test('kinds that break the connection reach no route and are never counted; the journal names the fault and no status', async () => {
    const service = createMockService({ now: NOW })
    for (const kind of ['reset', 'hang', 'network_error'] as const) {
      service.faults.add({ kind })
      const res = await service.handle(ohlcv('1h'))
      expect(res.delivery).toEqual({ kind })
    }
    expect(service.usage().acct_pro).toBe(0)
    expect(service.requests().map((r) => [r.status, r.fault?.kind])).toEqual([
      [null, 'reset'],
      [null, 'hang'],
      [null, 'network_error'],
    ])
  })

  test('kinds that deliver the service answer badly (truncate, slow_body) carry the real answer and count like it', async () => {
    const service = createMockService({ now: NOW })
    service.faults.add({ kind: 'truncate', after_bytes: 10 })
    service.faults.add({ kind: 'slow_body', bytes_per_second: 100 })
    const cut = await service.handle(ohlcv('1h'))
    expect(cut).toMatchObject({ status: 200, delivery: { kind: 'truncate', afterBytes: 10 } })
    expect(cut.body).toHaveLength(1)
    expect((await service.handle(ohlcv('1h'))).delivery).toEqual({ kind: 'slow_body', bytesPerSecond: 100 })
    expect(service.usage().acct_pro).toBe(2)
  })
})

describe('faults, version 2: bad faults are refused with the field named', () => {
  test.each([
    [{ kind: 'truncate' }, /a truncate fault needs after_bytes/],
    [{ kind: 'slow_body' }, /exactly one of bytes_per_second and duration_ms/],
    [{ kind: 'slow_body', bytes_per_second: 5, duration_ms: 5 }, /exactly one of bytes_per_second and duration_ms/],
    [{ kind: 'latency' }, /a latency fault needs latency_ms/],
    [{ kind: 'reset', status: 503 }, /status does not apply to a reset fault/],
    [{ kind: 'hang', after_bytes: 3 }, /after_bytes does not apply to a hang fault/],
    [{ kind: 'latency', latency_ms: { dist: 'uniform', min_ms: 5, max_ms: 1 } }, /min_ms must not exceed max_ms/],
    [{ kind: 'latency', latency_ms: { dist: 'normal', median_ms: 5 } }, /latency_ms/],
    [{ probability: 1.5 }, /probability/],
    [{ kind: 'boom' }, /kind/],
  ])('%j', (fault, message) => {
    expect(() => createMockService().faults.add(fault as Fault)).toThrow(message)
  })

  test("today's bodies keep working: status, body, headers, networkError, times", async () => {
    const service = createMockService({ now: NOW })
    service.faults.add({ path: '/v1/assets', status: 429, body: { detail: 'slow down' }, headers: { 'retry-after': '1' }, times: 1 })
    service.faults.add({ networkError: true })
    const res = await service.handle(get('/v1/assets'))
    expect(res).toMatchObject({ status: 429, body: { detail: 'slow down' }, headers: { 'retry-after': '1' } })
    expect((await service.handle(get('/v1/assets'))).networkError).toBe(true)
  })

  test('through MSW in Node: a hang ends when the client gives up; a truncated body fails while read', async () => {
    const mock = setupMockService({ now: NOW })
    mock.service.faults.add({ kind: 'hang', path: '/v1/assets' })
    const t0 = performance.now()
    const hung = await mock.fetch(`${mock.baseUrl}/v1/assets`, { signal: AbortSignal.timeout(150) }).catch((e: unknown) => e)
    expect((hung as Error).name).toBe('TimeoutError')
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140)
    mock.service.faults.add({ kind: 'truncate', after_bytes: 5, path: '/v1/assets' })
    const res = await mock.fetch(`${mock.baseUrl}/v1/assets`)
    expect(res.status).toBe(200)
    expect(await res.text().catch((e: Error) => e.message)).toMatch(/cut the body after 5 bytes/)
    expect(mock.requests().map((r) => [r.status, r.fault?.kind])).toEqual([
      [null, 'hang'],
      [200, 'truncate'],
    ])
  })

  test('where an adapter cannot do a kind, adding it fails with a clear error naming the adapter', () => {
    const mock = setupMockService()
    expect(() => mock.service.faults.add({ kind: 'reset' })).toThrow("The MSW adapter cannot inject a 'reset' fault")
    // Sessions share their service's adapters.
    expect(() => mock.service.session('a').faults.add({ kind: 'reset' })).toThrow(/MSW adapter/)
    expect(() => mock.service.faults.add({ kind: 'truncate', after_bytes: 1 })).not.toThrow()
    expect(() => createMockService().faults.add({ kind: 'reset' })).not.toThrow()
  })
})
