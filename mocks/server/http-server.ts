import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { createMockService, type MockService, type MockServiceOptions } from '../core/service.js'
import { CORS_HEADERS, preflightHeaders } from '../core/cors.js'
import { json } from '../core/respond.js'
import { BytePool } from './byte-pool.js'
import { encodeJson } from './encode-json.js'
import type { MockResponse } from '../core/types.js'

/** Options of {@link startMockServer}. */
export interface MockServerOptions extends MockServiceOptions {
  /** Serve this service instead of creating one from the other options. */
  service?: MockService
  /** 0 picks a free port. @default 0 */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** Delays every response by this many milliseconds. @default 0 */
  latency?: number
}

/** A running standalone server. */
export interface RunningMockServer {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string
  readonly service: MockService
  readonly server: Server
  /** Stops accepting and closes idle connections. */
  close(): Promise<void>
}

const EMPTY = Buffer.alloc(0)

function send(res: ServerResponse, answer: MockResponse, pool: BytePool): void {
  // Encoded once: the length and the bytes written come from the same buffer.
  const body = answer.status === 204 ? EMPTY : encodeJson(answer.body, pool)
  res.writeHead(answer.status, { ...CORS_HEADERS, ...answer.headers, 'content-length': body.length })
  // 'finish': every byte is with the kernel, so the buffer can serve another response.
  res.end(body, () => pool.give(body))
}

/** Test-suite endpoints outside `/v1`, for suites written in other languages. */
async function stateEndpoint(service: MockService, req: IncomingMessage, method: string, path: string): Promise<MockResponse | undefined> {
  const routes: Record<string, [string, () => Promise<MockResponse>]> = {
    '/_mock/usage': ['GET', async () => json(200, service.usage())],
    '/_mock/reset': ['POST', async () => (await service.reset(), { status: 204, headers: {}, body: null })],
  }
  const route = routes[path]
  if (!route) return undefined
  // A web page could send a simple cross-origin POST here and wipe a local server's state.
  if (req.headers.origin !== undefined) return json(403, { detail: 'The /_mock endpoints refuse cross-origin browser requests' })
  return method === route[0] ? route[1]() : json(405, { detail: 'Method Not Allowed' }, { allow: route[0] })
}

/** The request listener of the standalone server, for mounting on a server of your own. */
export function createRequestListener(service: MockService, options: { latency?: number } = {}) {
  const latency = options.latency ?? 0
  const pool = new BytePool()
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.resume()
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    try {
      if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
        res.writeHead(204, preflightHeaders(req.headers['access-control-request-headers']))
        res.end()
        return
      }
      const path = url.split('?', 1)[0]!
      const answer = (await stateEndpoint(service, req, method, path)) ?? (await service.handle({ method, url, headers: req.headers }))
      if (latency > 0) await sleep(latency)
      if (answer.networkError) {
        req.socket.destroy()
        return
      }
      send(res, answer, pool)
    } catch (error) {
      // A bug in the reference service must show as a 500, never as a hung request.
      console.error('market-candles mock server:', error)
      if (!res.headersSent) send(res, json(500, { detail: 'Internal Server Error' }), pool)
      else res.destroy()
    }
  }
}

/**
 * Starts the reference service on `node:http`.
 *
 * @example
 * const server = await startMockServer({ port: 0, now: '2025-01-01T00:00:00Z' })
 * await fetch(`${server.url}/v1/assets`)
 * await server.close()
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<RunningMockServer> {
  const { service: given, port = 0, host = '127.0.0.1', latency, ...serviceOptions } = options
  const service = given ?? createMockService(serviceOptions)
  const server = createServer(createRequestListener(service, { latency }))
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${hostPart}:${address.port}`,
    service,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeIdleConnections()
      }),
  }
}
