import { describe, expect, test } from 'vitest'
import { createMockService, RequestWaitTimeoutError } from '../../../mocks/index.js'
import { setupMockService } from '../../../mocks/node/index.js'

const NOW = '2026-06-01T00:00:00Z'
const SECRET = 'demo-pro-key'
const candles = (query: string, key: string | undefined = SECRET) => ({
  method: 'GET',
  url: `/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&${query}`,
  headers: key === undefined ? {} : { 'x-api-key': key },
})

describe('the request journal', () => {
  test('every request is recorded: method, path, query as parsed, account (never the key), status, reason, fault, wall and service time', async () => {
    const service = createMockService({ now: NOW })
    const before = Date.now()
    await service.handle(candles('limit=2&limit=3'))
    await service.handle(candles('limit=2'))
    await service.handle({ method: 'GET', url: '/v1/assets', headers: { 'x-api-key': SECRET } })
    const [repeated, ok, assets] = service.requests()
    expect(repeated).toMatchObject({ seq: 1, method: 'GET', path: '/v1/exchange_ohlcv', account: 'acct_pro', status: 422, reason: { rule: 'validation', fields: ['limit'] }, fault: null })
    expect(repeated!.query).toEqual({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: ['2', '3'] })
    expect(ok).toMatchObject({ seq: 2, status: 200, reason: null, account: 'acct_pro' })
    expect(ok!.time.service).toBe('2026-06-01T00:00:00.000Z')
    expect(Date.parse(ok!.time.wall)).toBeGreaterThanOrEqual(before - 1)
    expect(Date.parse(ok!.time.wall)).toBeLessThanOrEqual(Date.now())
    // The catalog ignores the key entirely: no account.
    expect(assets).toMatchObject({ path: '/v1/assets', account: null, status: 200 })
    expect(JSON.stringify(service.requests())).not.toContain(SECRET)
  })

  test('the reason of a rejection: the 422 fields, the rule of a 401, 403 and 404, the 429 window', async () => {
    const service = createMockService({ now: NOW })
    const pair = (query: string, key?: string) => ({ method: 'GET', url: `/v1/exchange_ohlcv?${query}`, headers: key ? { 'x-api-key': key } : {} })
    await service.handle(pair('exchange=bitstamp&interval=1h&base=BTC&quote=USD'))
    await service.handle(pair('exchange=bitstamp&interval=1m&base=BTC&quote=USD', 'demo-free-key'))
    await service.handle(pair('exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=soon&limit=0', SECRET))
    await service.handle(pair('exchange=nowhere&interval=1h&base=BTC&quote=USD', SECRET))
    await service.handle({ method: 'POST', url: '/v1/assets' })
    for (let i = 0; i < 11; i++) await service.handle(candles('limit=1'))
    const reasons = service.requests().map((r) => [r.status, r.reason])
    expect(reasons[0]).toEqual([401, { rule: 'authentication', detail: 'Not authenticated' }])
    expect(reasons[1]![0]).toBe(403)
    expect(reasons[1]![1]).toMatchObject({ rule: 'plan', detail: expect.stringContaining("Plan 'free'") })
    expect(reasons[2]).toEqual([422, { rule: 'validation', fields: ['start', 'limit'] }])
    expect(reasons[3]).toEqual([404, { rule: 'resolution', detail: "Unknown exchange 'nowhere'" }])
    expect(reasons[4]).toEqual([405, { rule: 'routing', detail: 'Method Not Allowed' }])
    expect(reasons.at(-1)).toEqual([429, { rule: 'rate_limit', limit: 10, retry_after: 1 }])
    expect(service.requests({ status: 200 })).toHaveLength(10)
  })

  test('filters: path, status, account, method, since (a seq number or an instant); clearRequests empties it', async () => {
    const service = createMockService({ now: NOW })
    await service.handle(candles('limit=1'))
    await service.handle(candles('limit=1', 'demo-enterprise-key'))
    await service.handle({ method: 'GET', url: '/v1/exchanges' })
    await new Promise((r) => setTimeout(r, 5))
    const mark = new Date()
    await new Promise((r) => setTimeout(r, 5))
    await service.handle({ method: 'GET', url: '/v1/assets' })
    expect(service.requests({ path: '/v1/exchange_ohlcv' }).map((r) => r.account)).toEqual(['acct_pro', 'acct_enterprise'])
    expect(service.requests({ account: 'acct_enterprise' }).map((r) => r.seq)).toEqual([2])
    expect(service.requests({ status: 200, path: '/v1/exchanges' })).toHaveLength(1)
    expect(service.requests({ since: 2 }).map((r) => r.seq)).toEqual([3, 4])
    expect(service.requests({ since: mark }).map((r) => r.path)).toEqual(['/v1/assets'])
    expect(service.requests({ since: mark.toISOString() }).map((r) => r.path)).toEqual(['/v1/assets'])
    expect(service.requests({ method: 'POST' })).toEqual([])
    expect(() => service.requests({ stauts: 200 } as never)).toThrow("Unknown journal filter 'stauts'")
    expect(() => service.requests({ since: 'yesterday' })).toThrow(/since must be a seq number or a datetime/)
    service.clearRequests()
    expect(service.requests()).toEqual([])
    await service.handle({ method: 'GET', url: '/v1/assets' })
    expect(service.requests()[0]!.seq).toBe(5)
  })

  test('bounded: a ring buffer of `journal.size` entries (default 1000) keeps the newest; `journal: false` switches it off', async () => {
    const small = createMockService({ journal: { size: 3 } })
    for (let i = 0; i < 10; i++) await small.handle({ method: 'GET', url: `/v1/assets?i=${i}` })
    expect(small.requests().map((r) => r.query.i)).toEqual(['7', '8', '9'])
    const big = createMockService()
    for (let i = 0; i < 1005; i++) await big.handle({ method: 'GET', url: '/nowhere' })
    expect(big.requests()).toHaveLength(1000)
    expect(big.requests()[0]!.seq).toBe(6)
    const off = createMockService({ journal: false })
    await off.handle({ method: 'GET', url: '/v1/assets' })
    expect(off.requests()).toEqual([])
    await expect(off.waitForRequests({}, { timeoutMs: 10 })).rejects.toThrow(/journal is off/)
    expect(() => createMockService({ journal: { size: -1 } })).toThrow(/journal.size must be an integer >= 0/)
  })

  test('waitForRequests resolves when `count` matching requests have arrived, those already there included', async () => {
    const service = createMockService({ now: NOW })
    await service.handle(candles('limit=1'))
    const waiting = service.waitForRequests({ path: '/v1/exchange_ohlcv', status: 200 }, { count: 3, timeoutMs: 5000 })
    await service.handle({ method: 'GET', url: '/v1/assets' })
    await service.handle(candles('limit=2'))
    setTimeout(() => void service.handle(candles('limit=3')), 20)
    const got = await waiting
    expect(got.map((r) => r.query.limit)).toEqual(['1', '2', '3'])
  })

  test('waitForRequests rejects on timeout with what did arrive', async () => {
    const service = createMockService({ now: NOW })
    await service.handle(candles('limit=1'))
    const error = await service.waitForRequests({ path: '/v1/exchange_ohlcv' }, { count: 2, timeoutMs: 30 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RequestWaitTimeoutError)
    expect((error as RequestWaitTimeoutError).message).toMatch(/Timed out after 30 ms waiting for 2 request\(s\) matching \{"path":"\/v1\/exchange_ohlcv"\}: 1 arrived/)
    expect((error as RequestWaitTimeoutError).requests.map((r) => r.status)).toEqual([200])
    await expect(service.waitForRequests({}, { count: 0 })).rejects.toThrow(/count must be an integer >= 1/)
    await expect(service.waitForRequests({ paht: '/v1' } as never)).rejects.toThrow("Unknown journal filter 'paht'")
    const controller = new AbortController()
    const aborted = service.waitForRequests({ path: '/nowhere' }, { signal: controller.signal })
    controller.abort(new Error('test over'))
    await expect(aborted).rejects.toThrow('test over')
  })

  test('the MSW helpers expose the same journal', async () => {
    const mock = setupMockService({ now: NOW })
    await mock.fetch('https://api.market-candles.example/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1', { headers: { 'X-API-Key': SECRET } })
    expect(mock.requests()).toEqual(mock.service.requests())
    expect(mock.requests()[0]).toMatchObject({ account: 'acct_pro', status: 200 })
    const waiting = mock.waitForRequests({ path: '/v1/assets' })
    await mock.fetch('https://api.market-candles.example/v1/assets')
    expect(await waiting).toHaveLength(1)
    mock.clearRequests()
    expect(mock.service.requests()).toEqual([])
  })
})
