import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

const PRO = { 'X-API-Key': 'demo-pro-key' }

describe('the control plane of the standalone server (/_mock)', () => {
  let server: RunningMockServer
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
  const candle = () => fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: PRO })

  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
  })
  beforeEach(() => server.service.reset())
  afterAll(() => server.close())

  test('POST /_mock/faults takes the shape of service.faults.add and answers 201 with the fault id; the fault applies', async () => {
    const res = await call('POST', '/_mock/faults', { path: '/v1/exchange_ohlcv', status: 503, body: { detail: 'down' }, times: 2 })
    expect(res.status).toBe(201)
    const { id } = await res.json()
    expect(id).toMatch(/^fault-\d+$/)
    expect((await candle()).status).toBe(503)
    expect((await candle()).status).toBe(503)
    expect((await candle()).status).toBe(200)
  })

  test('GET /_mock/faults lists the pending faults with their ids; DELETE /_mock/faults clears them', async () => {
    const a = await (await call('POST', '/_mock/faults', { path: '/v1/assets', status: 500, times: 3 })).json()
    const b = await (await call('POST', '/_mock/faults', { networkError: true })).json()
    const listed = await (await call('GET', '/_mock/faults')).json()
    expect(listed).toEqual([
      { id: a.id, path: '/v1/assets', status: 500, times: 3 },
      { id: b.id, networkError: true, times: 1 },
    ])
    expect((await call('DELETE', '/_mock/faults')).status).toBe(204)
    expect(await (await call('GET', '/_mock/faults')).json()).toEqual([])
    expect((await fetch(`${server.url}/v1/assets`)).status).toBe(200)
  })

  test('GET /_mock/clock answers {"now": ISO, "rate": N}; POST takes {"now"} or {"advance_ms"}', async () => {
    expect(await (await call('GET', '/_mock/clock')).json()).toEqual({ now: '2026-06-01T00:00:00.000Z', rate: 0 })
    const set = await call('POST', '/_mock/clock', { now: '2025-03-01T00:00:00Z' })
    expect(set.status).toBe(200)
    expect(await set.json()).toEqual({ now: '2025-03-01T00:00:00.000Z', rate: 0 })
    expect((await (await candle()).json())[0].close_ts).toBe('2025-03-01T00:00:00Z')
    const moved = await call('POST', '/_mock/clock', { advance_ms: 3_600_000 })
    expect(await moved.json()).toEqual({ now: '2025-03-01T01:00:00.000Z', rate: 0 })
    expect((await (await candle()).json())[0].close_ts).toBe('2025-03-01T01:00:00Z')
  })

  test('POST /_mock/clock {"rate": N} runs the clock at N times wall speed: a new 1m candle every second at 60', async () => {
    const res = await call('POST', '/_mock/clock', { now: '2026-06-01T00:00:00Z', rate: 60 })
    expect((await res.json()).rate).toBe(60)
    const latest = async () => {
      const r = await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1`, { headers: PRO })
      return Date.parse((await r.json())[0].close_ts)
    }
    const before = await latest()
    // Polled, not slept for a fixed time: the wait ends as soon as the next candle is there.
    let after = before
    for (let i = 0; i < 40 && after === before; i++) {
      await new Promise((r) => setTimeout(r, 150)) // under the 10 requests/second limit
      after = await latest()
    }
    expect(after - before).toBe(60_000)
    const { now } = await (await call('GET', '/_mock/clock')).json()
    expect(Date.parse(now)).toBeGreaterThan(Date.parse('2026-06-01T00:01:00Z'))
  })

  test('the Date header of every answer, control plane included, is the service clock', async () => {
    for (const res of [await candle(), await fetch(`${server.url}/v1/assets`), await call('GET', '/_mock/clock'), await call('GET', '/_mock/nothing')]) {
      expect(res.headers.get('date')).toBe('Mon, 01 Jun 2026 00:00:00 GMT')
    }
  })

  test.each([
    ['a status out of range', '/_mock/faults', { status: 99 }, { type: 'greater_than_equal', loc: ['body', 'status'], input: 99, ctx: { ge: 200 } }],
    ['a status without a body', '/_mock/faults', { status: 204 }, { type: 'value_error', loc: ['body', 'status'], input: 204 }],
    ['times not an integer', '/_mock/faults', { times: 1.5 }, { type: 'int_type', loc: ['body', 'times'], input: 1.5 }],
    ['times below 1', '/_mock/faults', { times: 0 }, { type: 'greater_than_equal', loc: ['body', 'times'], input: 0 }],
    ['an unknown field', '/_mock/faults', { stauts: 503 }, { type: 'extra_forbidden', loc: ['body', 'stauts'], input: 503 }],
    ['a header value that is not a string', '/_mock/faults', { headers: { 'retry-after': 3 } }, { type: 'string_type', loc: ['body', 'headers', 'retry-after'], input: 3 }],
    ['a body that is not an object', '/_mock/faults', [1], { type: 'dict_type', loc: ['body'], input: [1] }],
    ['a body that is not JSON', '/_mock/faults', '{status: 503', { type: 'json_invalid', loc: ['body'] }],
    ['an empty body', '/_mock/faults', '', { type: 'missing', loc: ['body'], input: null }],
    ['a datetime that does not parse', '/_mock/clock', { now: 'tomorrow' }, { type: 'datetime_from_date_parsing', loc: ['body', 'now'], msg: 'Input should be a valid datetime or date', input: 'tomorrow' }],
    ['both now and advance_ms', '/_mock/clock', { now: '2025-01-01', advance_ms: 5 }, { type: 'value_error', loc: ['body'], msg: 'Value error, give at most one of "now" and "advance_ms"' }],
    ['none of now, advance_ms and rate', '/_mock/clock', {}, { type: 'value_error', loc: ['body'], msg: 'Value error, give "now", "advance_ms" or "rate"' }],
    ['a negative rate', '/_mock/clock', { rate: -1 }, { type: 'greater_than_equal', loc: ['body', 'rate'], input: -1 }],
    ['a rate as a string', '/_mock/clock', { rate: '60' }, { type: 'float_type', loc: ['body', 'rate'], input: '60' }],
    ['advance_ms as a string', '/_mock/clock', { advance_ms: '5' }, { type: 'float_type', loc: ['body', 'advance_ms'], input: '5' }],
    ['advance_ms beyond the range of a date', '/_mock/clock', { advance_ms: 9e15 }, { type: 'value_error', loc: ['body', 'advance_ms'], input: 9e15 }],
  ])('a bad body (%s) gets 422 in the service validation format, with nothing changed', async (_name, path, body, issue) => {
    const res = await call('POST', path, body)
    expect(res.status).toBe(422)
    const json = await res.json()
    expect(json.detail).toHaveLength(1)
    expect(json.detail[0]).toMatchObject(issue)
    expect(typeof json.detail[0].msg).toBe('string')
    expect(await (await call('GET', '/_mock/faults')).json()).toEqual([])
    expect(await (await call('GET', '/_mock/clock')).json()).toEqual({ now: '2026-06-01T00:00:00.000Z', rate: 0 })
  })

  test('every /_mock route refuses a browser origin with 403, and changes nothing', async () => {
    const origin = { Origin: 'http://evil.test' }
    for (const [method, path, body] of [
      ['GET', '/_mock/usage'],
      ['POST', '/_mock/reset'],
      ['GET', '/_mock/faults'],
      ['POST', '/_mock/faults', { status: 503 }],
      ['DELETE', '/_mock/faults'],
      ['GET', '/_mock/clock'],
      ['POST', '/_mock/clock', { advance_ms: 1000 }],
      ['GET', '/_mock/nothing'],
    ] as const) {
      const res = await call(method, path, body, origin)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect((await res.json()).detail).toMatch(/cross-origin/)
    }
    expect(await (await call('GET', '/_mock/faults')).json()).toEqual([])
    expect(await (await call('GET', '/_mock/clock')).json()).toEqual({ now: '2026-06-01T00:00:00.000Z', rate: 0 })
  })

  test('another method on a /_mock route is 405 with Allow; an unknown /_mock path is 404', async () => {
    const put = await call('PUT', '/_mock/faults')
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE')
    expect((await call('DELETE', '/_mock/clock')).headers.get('allow')).toBe('GET, POST')
    const unknown = await call('GET', '/_mock/nothing')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ detail: 'Not Found' })
  })

  test('a body over 64 KiB gets 413 with a JSON detail', async () => {
    const res = await call('POST', '/_mock/faults', { body: 'x'.repeat(70_000) })
    expect(res.status).toBe(413)
    expect((await res.json()).detail).toMatch(/too large/)
  })

  test('POST /_mock/reset also clears faults and restores the clock', async () => {
    await call('POST', '/_mock/faults', { status: 503, times: 5 })
    await call('POST', '/_mock/clock', { advance_ms: 60_000 })
    expect((await call('POST', '/_mock/reset')).status).toBe(204)
    expect(await (await call('GET', '/_mock/faults')).json()).toEqual([])
    expect(await (await call('GET', '/_mock/clock')).json()).toEqual({ now: '2026-06-01T00:00:00.000Z', rate: 0 })
  })
})
