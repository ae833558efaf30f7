import { once } from 'node:events'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

const TOKEN = 'tok-3f9a1c-secret-control'

describe('a control token locks the control plane (startMockServer({ controlToken }))', () => {
  let server: RunningMockServer
  const seen: string[] = []
  const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const res = await fetch(`${server.url}${path}`, { method, headers, body })
    const text = await res.text()
    seen.push(text, JSON.stringify([...res.headers]))
    return { status: res.status, headers: res.headers, text }
  }
  const bearer = { Authorization: `Bearer ${TOKEN}` }

  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z', controlToken: TOKEN })
  })
  afterAll(() => server.close())

  test('a /_mock request without Authorization, root or session, is a 401 with WWW-Authenticate: Bearer, and changes nothing', async () => {
    for (const [method, path] of [
      ['GET', '/_mock/usage'],
      ['GET', '/_mock/openapi.json'],
      ['POST', '/_mock/reset'],
      ['POST', '/_mock/faults'],
      ['GET', '/_mock/nothing'],
      ['POST', '/_mock/data/reset'],
      ['PUT', '/_mock/keys/k1'],
      ['GET', '/_sessions/s1/_mock/faults'],
      ['POST', '/_sessions/s1/_mock/faults'],
    ] as const) {
      const res = await call(method, path, {}, method === 'GET' ? undefined : '{"status": 503}')
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
      expect(JSON.parse(res.text).detail).toMatch(/Authorization: Bearer/)
    }
    expect((await call('GET', '/_mock/faults', bearer)).text).toBe('[]')
    expect((await call('GET', '/_sessions/s1/_mock/faults', bearer)).text).toBe('[]')
  })

  test('a wrong token, another scheme or an empty bearer is a 401 too', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer ', `Basic ${TOKEN}`, TOKEN, `Bearer wrong`]) {
      expect((await call('GET', '/_mock/usage', { Authorization: authorization })).status, authorization.replace(TOKEN, 'TOKEN')).toBe(401)
    }
  })

  test('with Authorization: Bearer <token>, every control route answers as without a lock, sessions too', async () => {
    expect((await call('GET', '/_mock/health', bearer)).status).toBe(200)
    expect((await call('POST', '/_mock/faults', bearer, '{"status": 503, "path": "/v1/assets"}')).status).toBe(201)
    expect((await call('GET', '/v1/assets')).status).toBe(503)
    expect((await call('DELETE', '/_mock/faults', bearer)).status).toBe(204)
    expect((await call('POST', '/_sessions/s2/_mock/clock', { ...bearer, 'content-type': 'application/json' }, '{"advance_ms": 1000}')).status).toBe(200)
    expect((await call('GET', '/_mock/usage', { authorization: `bearer ${TOKEN}` })).status).toBe(200)
  })

  test('the API itself needs no control token', async () => {
    expect((await call('GET', '/v1/exchanges')).status).toBe(200)
    const res = await call('GET', '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1', { 'X-API-Key': 'demo-pro-key' })
    expect(res.status).toBe(200)
  })

  test('a body sent without the token is never read: a 401, not a 413', async () => {
    const res = await call('POST', '/_mock/data/candles', {}, 'x'.repeat(200_000))
    expect(res.status).toBe(401)
  })

  test('a control request that Node\'s parser refuses (a malformed header) gets a 4xx, never an answer of the control plane', async () => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1')
    let raw = ''
    socket.on('data', (chunk) => (raw += chunk))
    socket.write('GET /_mock/usage HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n')
    await once(socket, 'close')
    expect(raw).toMatch(/^HTTP\/1\.1 4\d\d /)
    expect(raw).not.toMatch(/acct_/)
    seen.push(raw)
  })

  test('the token is never echoed: in no answer body or header', () => {
    expect(seen.length).toBeGreaterThan(10)
    expect(seen.filter((text) => text.includes(TOKEN))).toEqual([])
  })

  test('an empty controlToken is refused at start, and the error does not quote it', async () => {
    await expect(startMockServer({ port: 0, controlToken: '' })).rejects.toThrow(/controlToken must be a non-empty string/)
  })
})
