import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { PRO, TRANSPORTS, type Transport } from '../support/transports.js'

describe.each(TRANSPORTS)('everything that is not a GET on a known path via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ now: '2026-06-01T00:00:00Z' })
  })
  afterAll(() => t.close())

  test('unknown path: 404 {"detail":"Not Found"}', async () => {
    for (const path of ['/v1/nothing', '/v2/assets', '/', '/v1/assets/', '/v1', '/V1/assets', '/v1/exchange_ohlcv/x']) {
      const res = await t.get(path)
      expect(res.status, path).toBe(404)
      expect(res.body).toEqual({ detail: 'Not Found' })
    }
  })

  test('another method on a known path: 405 {"detail":"Method Not Allowed"} with Allow: GET', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await t.request(method, '/v1/exchange_ohlcv', PRO)
      expect(res.status).toBe(405)
      expect(res.body).toEqual({ detail: 'Method Not Allowed' })
      expect(res.headers.get('allow')).toBe('GET')
    }
    expect(t.service.usage().acct_pro).toBe(0)
  })
})

describe('the standalone HTTP server', () => {
  let server: RunningMockServer
  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
  })
  beforeEach(() => server.service.reset())
  afterAll(() => server.close())

  test('listens on 127.0.0.1 by default', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  test('answers CORS preflight and sends Access-Control-Allow-Origin: * so a browser page on another origin can use it', async () => {
    const pre = await fetch(`${server.url}/v1/exchange_ohlcv`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET')
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key')
    const res = await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: { Origin: 'http://app.test', ...PRO } })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining')
    const denied = await fetch(`${server.url}/v1/nothing`)
    expect(denied.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('GET /_mock/usage maps each account id to its counted calls; POST /_mock/reset restores it', async () => {
    await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: PRO })
    expect(await (await fetch(`${server.url}/_mock/usage`)).json()).toEqual({ acct_free: 0, acct_pro: 1, acct_enterprise: 0 })
    const reset = await fetch(`${server.url}/_mock/reset`, { method: 'POST' })
    expect(reset.status).toBe(204)
    expect(await (await fetch(`${server.url}/_mock/usage`)).json()).toEqual({ acct_free: 0, acct_pro: 0, acct_enterprise: 0 })
    expect((await fetch(`${server.url}/_mock/reset`)).status).toBe(405)
  })

  test('an injected network fault breaks the connection; an injected 503 answers 503 and is not counted', async () => {
    server.service.faults.add({ path: '/v1/exchange_ohlcv', networkError: true })
    server.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503 })
    const url = `${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`
    await expect(fetch(url, { headers: PRO })).rejects.toThrow()
    expect((await fetch(url, { headers: PRO })).status).toBe(503)
    expect((await fetch(url, { headers: PRO })).status).toBe(200)
    expect(server.service.usage().acct_pro).toBe(1)
  })

  test('--latency delays every response', async () => {
    const slow = await startMockServer({ port: 0, latency: 150 })
    try {
      const started = performance.now()
      await fetch(`${slow.url}/v1/assets`)
      expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    } finally {
      await slow.close()
    }
  })
})
