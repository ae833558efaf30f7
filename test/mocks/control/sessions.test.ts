import { describe, expect, test } from 'vitest'
import { createMockService } from '../../../mocks/index.js'
import { setupMockService } from '../../../mocks/node/index.js'
import { startMockServer } from '../../../mocks/server/index.js'
import { createClient } from '../../../src/index.js'

const OHLCV = '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1'
const PRO = { 'x-api-key': 'demo-pro-key' }

describe('sessions: /_sessions/NAME scopes usage, rate windows, the journal, faults and the clock', () => {
  test('a session is created on first use; sessions do not see each other nor the root', async () => {
    const service = createMockService({ now: '2026-06-01T00:00:00Z' })
    service.session('b').faults.add({ status: 503 })
    service.session('b').clock.set('2025-01-01T00:00:00Z')
    const a = await service.handle({ method: 'GET', url: `/_sessions/a${OHLCV}`, headers: PRO })
    const b = await service.handle({ method: 'GET', url: `/_sessions/b${OHLCV}`, headers: PRO })
    const b2 = await service.handle({ method: 'GET', url: `/_sessions/b${OHLCV}`, headers: PRO })
    expect([a.status, b.status, b2.status]).toEqual([200, 503, 200])
    expect((a.body as { close_ts: string }[])[0]!.close_ts).toBe('2026-06-01T00:00:00Z')
    expect((b2.body as { close_ts: string }[])[0]!.close_ts).toBe('2025-01-01T00:00:00Z')
    expect(service.session('a').usage().acct_pro).toBe(1)
    expect(service.session('b').usage().acct_pro).toBe(1)
    expect(service.usage().acct_pro).toBe(0)
    expect(service.requests()).toEqual([])
    expect(service.session('a').requests().map((r) => r.path)).toEqual(['/v1/exchange_ohlcv'])
    expect(service.sessions()).toEqual(['b', 'a'])
  })

  test('rate windows are per session: one session at its limit leaves another untouched', async () => {
    const service = createMockService({ now: '2026-06-01T00:00:00Z' })
    const statuses = []
    for (let i = 0; i < 12; i++) statuses.push((await service.handle({ method: 'GET', url: `/_sessions/flood${OHLCV}`, headers: PRO })).status)
    expect(statuses.filter((s) => s === 429)).toHaveLength(2)
    expect((await service.handle({ method: 'GET', url: `/_sessions/calm${OHLCV}`, headers: PRO })).status).toBe(200)
    expect((await service.handle({ method: 'GET', url: OHLCV, headers: PRO })).status).toBe(200)
  })

  test('a session name that is not one is a 404 that says what a name may hold; sessions do not nest', async () => {
    const service = createMockService()
    const res = await service.handle({ method: 'GET', url: '/_sessions/a%20b/v1/assets' })
    expect(res.status).toBe(404)
    expect((res.body as { detail: string }).detail).toMatch(/Invalid session name 'a%20b': use 1 to 64 letters/)
    expect(() => service.session('')).toThrow(/Invalid session name ""/)
    expect(() => service.session('a').session('b')).toThrow(/Sessions do not nest/)
    expect((await service.handle({ method: 'GET', url: '/_sessions/a/_sessions/b/v1/assets' })).status).toBe(404)
  })

  test('reset() on the root drops every session; on a session, only that session', async () => {
    const service = createMockService()
    await service.handle({ method: 'GET', url: '/_sessions/a/v1/assets' })
    await service.handle({ method: 'GET', url: '/_sessions/b/v1/assets' })
    await service.session('a').reset()
    expect(service.session('a').requests()).toEqual([])
    expect(service.session('b').requests()).toHaveLength(1)
    await service.reset()
    expect(service.sessions()).toEqual([])
  })

  test('MSW handlers answer session URLs under their base URL: the SDK with baseUrl alone', async () => {
    const mock = setupMockService({ now: '2026-06-01T00:00:00Z' })
    const client = createClient({ apiKey: 'demo-pro-key', baseUrl: `${mock.baseUrl}/_sessions/a`, fetch: mock.fetch })
    await client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 2 })
    expect(mock.service.session('a').usage().acct_pro).toBe(1)
    expect(mock.service.usage().acct_pro).toBe(0)
  })

  test('over HTTP, the SDK with baseUrl alone; /_mock/... under a session acts on that session only', async () => {
    const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
    try {
      const base = `${server.url}/_sessions/suite-1`
      const client = createClient({ apiKey: 'demo-pro-key', baseUrl: base })
      await client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 2 })
      expect(await (await fetch(`${base}/_mock/usage`)).json()).toMatchObject({ acct_pro: 1 })
      expect(await (await fetch(`${server.url}/_mock/usage`)).json()).toMatchObject({ acct_pro: 0 })
      expect((await fetch(`${base}/_mock/faults`, { method: 'POST', body: '{"status": 500}' })).status).toBe(201)
      expect(await (await fetch(`${server.url}/_mock/faults`)).json()).toEqual([])
      expect((await fetch(`${base}/v1/assets`)).status).toBe(500)
      expect((await fetch(`${server.url}/v1/assets`)).status).toBe(200)
      expect((await fetch(`${base}/_mock/reset`, { method: 'POST' })).status).toBe(204)
      expect(await (await fetch(`${base}/_mock/requests`)).json()).toEqual([])
      expect((await (await fetch(`${server.url}/_mock/health`)).json()).sessions).toBe(1)
    } finally {
      await server.close()
    }
  })
})
