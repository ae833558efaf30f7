import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

const PRO = { 'X-API-Key': 'demo-pro-key' }
const OHLCV = '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=100'

/** A raw GET: what reached the client before the connection ended, and how it ended. */
function raw(url: string, timeoutMs = 5000): Promise<{ status?: number; bytes: number; declared?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { headers: PRO, timeout: timeoutMs }, (res) => {
      let bytes = 0
      res.on('data', (d: Buffer) => (bytes += d.length))
      res.on('end', () => resolve({ status: res.statusCode, bytes, declared: Number(res.headers['content-length']) }))
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ status: res.statusCode, bytes, declared: Number(res.headers['content-length']), error: e.code ?? e.message }))
    })
    req.on('timeout', () => req.destroy(new Error('client timeout')))
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ bytes: 0, error: e.code ?? e.message }))
    req.end()
  })
}

describe('faults, version 2, over HTTP (POST /_mock/faults, snake_case)', () => {
  let server: RunningMockServer
  const addFault = async (fault: unknown) => {
    const res = await fetch(`${server.url}/_mock/faults`, { method: 'POST', body: JSON.stringify(fault) })
    return { status: res.status, body: await res.json() }
  }
  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
  })
  beforeEach(() => server.service.reset())
  afterAll(() => server.close())

  test('reset: the connection is reset before any byte', async () => {
    expect((await addFault({ path: '/v1/exchange_ohlcv', kind: 'reset' })).status).toBe(201)
    expect(await raw(`${server.url}${OHLCV}`)).toEqual({ bytes: 0, error: 'ECONNRESET' })
  })

  test('truncate: headers sent, then the body cut after N bytes', async () => {
    await addFault({ kind: 'truncate', after_bytes: 100 })
    const got = await raw(`${server.url}${OHLCV}`)
    expect(got.status).toBe(200)
    expect(got.bytes).toBe(100)
    expect(got.declared).toBeGreaterThan(100)
    expect(got.error).toBe('ECONNRESET')
  })

  test('slow_body: the body dribbled over duration_ms arrives whole, that late', async () => {
    await addFault({ kind: 'slow_body', duration_ms: 400 })
    const t0 = performance.now()
    const got = await raw(`${server.url}${OHLCV}`)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(350)
    expect(got).toMatchObject({ status: 200 })
    expect(got.bytes).toBe(got.declared)
  })

  test('hang: no answer until the client gives up; the journal records it with no status', async () => {
    await addFault({ kind: 'hang', path: '/v1/assets' })
    const t0 = performance.now()
    const got = await raw(`${server.url}/v1/assets`, 200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190)
    expect(got.error).toBe('client timeout')
    const [entry] = await (await fetch(`${server.url}/_mock/requests?path=/v1/assets`)).json()
    expect(entry).toMatchObject({ status: null, fault: { kind: 'hang' } })
  })

  test('a hanging request does not keep the server from closing', async () => {
    const other = await startMockServer({ port: 0 })
    other.service.faults.add({ kind: 'hang' })
    const pending = raw(`${other.url}/v1/assets`, 10_000)
    await other.service.waitForRequests({ path: '/v1/assets' })
    const t0 = performance.now()
    await other.close()
    expect(performance.now() - t0).toBeLessThan(2000)
    expect((await pending).error).toBeDefined()
  })

  test('latency_ms as {"dist": "uniform"}; GET /_mock/faults lists the fault as given, with its id and remaining times', async () => {
    const { body } = await addFault({ kind: 'latency', latency_ms: { dist: 'uniform', min_ms: 50, max_ms: 60 }, times: 2, seed: 9, query: { interval: '1h' } })
    const t0 = performance.now()
    expect((await fetch(`${server.url}${OHLCV}`, { headers: PRO })).status).toBe(200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45)
    expect(await (await fetch(`${server.url}/_mock/faults`)).json()).toEqual([
      { id: body.id, kind: 'latency', latency_ms: { dist: 'uniform', min_ms: 50, max_ms: 60 }, seed: 9, query: { interval: '1h' }, times: 1 },
    ])
  })

  test.each([
    ['a kind that is not one', { kind: 'explode' }, { loc: ['body', 'kind'] }],
    ['a field of another kind', { kind: 'reset', status: 500 }, { type: 'value_error', loc: ['body', 'status'], msg: 'Value error, status does not apply to a reset fault' }],
    ['a truncate without after_bytes', { kind: 'truncate' }, { type: 'value_error', loc: ['body'], msg: 'Value error, a truncate fault needs after_bytes' }],
    ['a probability over 1', { probability: 2 }, { type: 'less_than_equal', loc: ['body', 'probability'] }],
    ['a query value that is not a string', { query: { limit: 5 } }, { type: 'string_type', loc: ['body', 'query', 'limit'] }],
  ])('a bad fault (%s) is a 422 naming the field, and nothing is added', async (_name, fault, issue) => {
    const { status, body } = await addFault(fault)
    expect(status).toBe(422)
    expect(body.detail[0]).toMatchObject(issue)
    expect(await (await fetch(`${server.url}/_mock/faults`)).json()).toEqual([])
  })
})
