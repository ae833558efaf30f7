import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

const PRO = { 'X-API-Key': 'demo-pro-key' }

describe('the request journal over HTTP (/_mock/requests)', () => {
  let server: RunningMockServer
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`)
    return { status: res.status, body: await res.json() }
  }
  const candle = (query = 'limit=1', headers: Record<string, string> = PRO) =>
    fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&${query}`, { headers }).then((r) => r.arrayBuffer())

  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
  })
  beforeEach(() => server.service.reset())
  afterAll(() => server.close())

  test('GET /_mock/requests lists every request, oldest first; the control plane itself is not journaled', async () => {
    await candle()
    await candle('limit=0')
    await fetch(`${server.url}/_mock/usage`)
    const { status, body } = await get('/_mock/requests')
    expect(status).toBe(200)
    expect(body.map((r: { status: number }) => r.status)).toEqual([200, 422])
    expect(body[1]).toMatchObject({ method: 'GET', path: '/v1/exchange_ohlcv', account: 'acct_pro', reason: { rule: 'validation', fields: ['limit'] }, fault: null })
    expect(body[1].time.service).toBe('2026-06-01T00:00:00.000Z')
    expect(JSON.stringify(body)).not.toContain('demo-pro-key')
  })

  test('filters path, status, account and since; DELETE /_mock/requests empties the journal', async () => {
    await candle()
    await candle('limit=1', { 'X-API-Key': 'demo-enterprise-key' })
    await fetch(`${server.url}/v1/assets`)
    expect((await get('/_mock/requests?path=/v1/assets')).body).toHaveLength(1)
    expect((await get('/_mock/requests?account=acct_enterprise')).body.map((r: { seq: number }) => r.seq)).toHaveLength(1)
    expect((await get('/_mock/requests?status=200&path=/v1/exchange_ohlcv')).body).toHaveLength(2)
    const all = (await get('/_mock/requests')).body
    expect((await get(`/_mock/requests?since=${all[0].seq}`)).body).toHaveLength(2)
    expect((await get(`/_mock/requests?since=${encodeURIComponent(all[2].time.wall)}`)).body.at(-1).path).toBe('/v1/assets')
    expect((await fetch(`${server.url}/_mock/requests`, { method: 'DELETE' })).status).toBe(204)
    expect((await get('/_mock/requests')).body).toEqual([])
  })

  test('the wait form (wait_for=N&timeout_ms=T) answers once N matching requests arrived', async () => {
    const waiting = get('/_mock/requests?path=/v1/exchange_ohlcv&wait_for=2&timeout_ms=5000')
    await candle()
    await candle()
    const { status, body } = await waiting
    expect(status).toBe(200)
    expect(body).toHaveLength(2)
  })

  test('the wait form answers 408 with what did arrive when T runs out', async () => {
    await candle()
    const { status, body } = await get('/_mock/requests?path=/v1/exchange_ohlcv&wait_for=3&timeout_ms=50')
    expect(status).toBe(408)
    expect(body.detail).toMatch(/Timed out after 50 ms waiting for 3 request\(s\).*: 1 arrived/)
    expect(body.requests).toHaveLength(1)
  })

  test.each([
    ['an unknown filter', 'stauts=200', { type: 'extra_forbidden', loc: ['query', 'stauts'] }],
    ['a status that is not one', 'status=abc', { type: 'value_error', loc: ['query', 'status'] }],
    ['since neither a seq nor a datetime', 'since=yesterday', { type: 'value_error', loc: ['query', 'since'] }],
    ['wait_for 0', 'wait_for=0', { type: 'value_error', loc: ['query', 'wait_for'] }],
    ['timeout_ms over 60000', 'wait_for=1&timeout_ms=60001', { type: 'value_error', loc: ['query', 'timeout_ms'] }],
    ['a filter given twice', 'path=/a&path=/b', { type: 'string_type', loc: ['query', 'path'] }],
  ])('a bad query (%s) is a 422 naming the parameter', async (_name, query, issue) => {
    const { status, body } = await get(`/_mock/requests?${query}`)
    expect(status).toBe(422)
    expect(body.detail[0]).toMatchObject(issue)
  })

  test('a wait in progress when the server closes answers 503 at once, so closing is not held up', async () => {
    const other = await startMockServer({ port: 0 })
    const arrived = new Promise((resolve) => other.server.once('request', resolve))
    const waiting = fetch(`${other.url}/_mock/requests?wait_for=5&timeout_ms=60000`)
    await arrived
    const t0 = performance.now()
    await other.close()
    const res = await waiting
    expect(res.status).toBe(503)
    expect((await res.json()).detail).toMatch(/The server is closing/)
    expect(performance.now() - t0).toBeLessThan(5000)
  })

  test('GET /_mock/health answers 200 {"status": "ok"}', async () => {
    const { status, body } = await get('/_mock/health')
    expect(status).toBe(200)
    expect(body).toMatchObject({ status: 'ok' })
  })
})
