import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMockService } from '../../mocks/index.js'
import { answerParserErrors, createRequestListener, startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

/** Sends raw bytes; resolves with everything the server wrote once it closes the connection. */
function raw(url: string, data: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string; closed: boolean }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(data))
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server did not close the connection; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`))
    }, 5000)
    socket.on('data', (d) => chunks.push(d))
    socket.on('error', () => {}) // a reset after the answer still counts as closed; the answer is checked below
    socket.on('close', () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('latin1')
      const [head = '', body = ''] = text.split('\r\n\r\n', 2)
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, closed: true })
    })
  })
}

describe('every answer is JSON, even for requests the HTTP parser refuses (contract: other-requests)', () => {
  let server: RunningMockServer
  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
  })
  afterAll(() => server.close())

  const cases: Array<[string, string | Buffer, number, RegExp]> = [
    ['a lower-case method on a known path', 'get /v1/exchanges HTTP/1.1\r\nHost: x\r\n\r\n', 405, /^Method Not Allowed$/],
    ['an unknown method token on a known path', 'FETCH /v1/exchange_ohlcv HTTP/1.1\r\nHost: x\r\n\r\n', 405, /^Method Not Allowed$/],
    ['a lower-case method on an unknown path', 'get /v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n', 404, /^Not Found$/],
    ['a lower-case method on a control path', 'post /_mock/reset HTTP/1.1\r\nHost: x\r\n\r\n', 405, /^Method Not Allowed$/],
    ['a 20 KB URL', `GET /v1/exchanges?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, /Request Header Fields Too Large/],
    ['a 32 KB header', `GET /v1/exchanges HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(32_000)}\r\n\r\n`, 431, /Request Header Fields Too Large/],
    ['a control character in the path', 'GET /v1/ex\x01changes HTTP/1.1\r\nHost: x\r\n\r\n', 400, /percent-encode/],
    ['a raw non-ASCII byte in the path', Buffer.concat([Buffer.from('GET /v1/ex'), Buffer.from([0xe9]), Buffer.from('changes HTTP/1.1\r\nHost: x\r\n\r\n')]), 400, /percent-encode/],
    ['a header line without a colon', 'GET /v1/exchanges HTTP/1.1\r\nHost: x\r\nBadHeader\r\n\r\n', 400, /malformed header line/],
    ['bad chunked encoding', 'POST /v1/exchanges HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n', 400, /malformed chunked body/],
    ['HTTP/9.9', 'GET /v1/exchanges HTTP/9.9\r\nHost: x\r\n\r\n', 400, /HTTP version/],
    ['a request line that is not HTTP', 'hello there\r\n\r\n', 400, /malformed request line/],
  ]

  test.each(cases)('%s: its status, a JSON {"detail": ...} body, and the connection closes', async (_name, data, status, detail) => {
    const res = await raw(server.url, data)
    expect(res.status).toBe(status)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.headers.connection).toBe('close')
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
    const body = JSON.parse(res.body)
    expect(Object.keys(body)).toEqual(['detail'])
    expect(body.detail).toMatch(detail)
    if (status === 405) expect(res.headers.allow).toMatch(/^(GET|POST)$/)
    expect(res.closed).toBe(true)
  })

  test('a request without a Host header is answered by the service, not refused by the HTTP layer', async () => {
    const res = await raw(server.url, 'GET /v1/assets HTTP/1.1\r\nConnection: close\r\n\r\n')
    expect(res.status).toBe(200)
    expect(Array.isArray(JSON.parse(res.body))).toBe(true)
  })

  test('the server keeps serving after refused requests, and none of them is counted', async () => {
    await raw(server.url, 'get /v1/exchange_ohlcv HTTP/1.1\r\nX-API-Key: demo-pro-key\r\n\r\n')
    const res = await fetch(`${server.url}/v1/exchanges`)
    expect(res.status).toBe(200)
    expect(server.service.usage().acct_pro).toBe(0)
  })
})

test('answerParserErrors gives a server of your own, mounting createRequestListener, the same JSON answers', async () => {
  const service = createMockService()
  const server = createServer(createRequestListener(service))
  answerParserErrors(server, service)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const lower = await raw(url, 'get /v1/assets HTTP/1.1\r\nHost: x\r\n\r\n')
    expect([lower.status, JSON.parse(lower.body), lower.headers.allow]).toEqual([405, { detail: 'Method Not Allowed' }, 'GET'])
    const version = await raw(url, 'GET /v1/assets HTTP/9.9\r\nHost: x\r\n\r\n')
    expect([version.status, version.headers['content-type']]).toEqual([400, 'application/json'])
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})
