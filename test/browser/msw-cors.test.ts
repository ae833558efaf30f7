import { getResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { CORS_HEADERS } from '../../mocks/core/message/cors.js'
import { createMockService } from '../../mocks/index.js'
import { createHandlers } from '../../mocks/msw/index.js'
import { startMockServer } from '../../mocks/server/index.js'

const BASE = 'https://candles.cors.test/api'
const handlers = createHandlers(createMockService({ now: '2026-06-01T00:00:00Z' }), { baseUrl: BASE })
const answer = async (path: string, init?: RequestInit) => (await getResponse(handlers, new Request(`${BASE}${path}`, init)))!

describe('CORS in the MSW handlers, as the standalone server sends it (contract: other-requests)', () => {
  test.each([
    ['a catalog 200', '/v1/exchanges', {}, 200],
    ['a candle 200', '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=2', { 'x-api-key': 'demo-pro-key' }, 200],
    ['a 401', '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD', {}, 401],
    ['a 404', '/v1/nowhere', {}, 404],
  ])('every answer carries Access-Control-Allow-Origin and exposes Retry-After and RateLimit-*: %s', async (_, path, headers, status) => {
    const res = await answer(path, { headers })
    expect(res.status).toBe(status)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Retry-After.*RateLimit-Limit.*RateLimit-Remaining.*RateLimit-Reset/)
    expect(res.headers.get('content-type')).toBe('application/json')
  })

  test('a preflight is answered 204 with the allowed method and headers, with or without Origin and Access-Control-Request-Method', async () => {
    for (const headers of [{ origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' }, {}] as Record<string, string>[]) {
      const res = await answer('/v1/exchange_ohlcv', { method: 'OPTIONS', headers })
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('x-api-key')
    }
  })

  test('the bodies are the JSON the service answered, byte for byte what the standalone server sends', async () => {
    const server = await startMockServer({ now: '2026-06-01T00:00:00Z' })
    try {
      for (const path of ['/v1/assets', '/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000', '/v1/exchange_pairs?interval=1h']) {
        const init = { headers: { 'x-api-key': 'demo-enterprise-key' } }
        const viaMsw = await answer(path, init)
        const viaServer = await fetch(`${server.url}${path}`, init)
        expect(viaMsw.status).toBe(viaServer.status)
        expect(await viaMsw.text()).toBe(await viaServer.text())
      }
    } finally {
      await server.close()
    }
  })

  test('an answer with a body carries its Content-Length, as the standalone server sends it', async () => {
    const server = await startMockServer({ now: '2026-06-01T00:00:00Z' })
    try {
      for (const [path, headers] of [['/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000', { 'x-api-key': 'demo-enterprise-key' }], ['/v1/nowhere', {}]] as const) {
        const viaMsw = await answer(path, { headers })
        const viaServer = await fetch(`${server.url}${path}`, { headers })
        const bytes = (await viaMsw.arrayBuffer()).byteLength
        expect(viaMsw.headers.get('content-length')).toBe(String(bytes))
        expect(viaMsw.headers.get('content-length')).toBe(viaServer.headers.get('content-length'))
      }
    } finally {
      await server.close()
    }
  })

  test('an answer read after later answers were made is still its own page, byte for byte', async () => {
    const server = await startMockServer({ now: '2026-06-01T00:00:00Z' })
    try {
      const init = { headers: { 'x-api-key': 'demo-enterprise-key' } }
      const paths = ['2026-05-01', '2026-04-01', '2026-03-01'].map((end) => `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000&end=${end}T00:00:00Z`)
      const viaMsw = []
      for (const path of paths) viaMsw.push(await answer(path, init))
      expect(viaMsw.map((res) => res.status)).toEqual([200, 200, 200])
      for (const [i, path] of paths.entries()) expect(await viaMsw[i]!.text()).toBe(await (await fetch(`${server.url}${path}`, init)).text())
    } finally {
      await server.close()
    }
  })

  test('the standalone server sends the same CORS headers', async () => {
    const server = await startMockServer({ now: '2026-06-01T00:00:00Z' })
    try {
      const res = await fetch(`${server.url}/v1/assets`)
      for (const [name, value] of Object.entries(CORS_HEADERS)) expect(res.headers.get(name)).toBe(value)
    } finally {
      await server.close()
    }
  })
})
