import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import type { DataControl } from '../data/arranged-data.js'
import { createMockService, type MockService, type MockServiceOptions } from '../core/service/service.js'
import { CORS_HEADERS, preflightHeaders } from '../core/message/cors.js'
import { json } from '../core/message/respond.js'
import { listenUrl } from './listen-url.js'
import { createClientErrorListener } from './client-error.js'
import { nodeHttp } from './node-http.js'
import { bodyLimitOf, handleControl, isControlPath } from '../core/control-plane/control-plane.js'
import { UNAUTHORIZED, controlTokenCheck } from './control-token.js'
import { withDate } from '../core/state/service-time.js'
import { isTextAnswer } from '../core/variant/text-answer.js'
import { OpenFaults, deliver } from './deliver.js'
import { splitSessionUrl, tooManySessions } from '../core/service/session-path.js'
import type { MockResponse } from '../core/message/types.js'

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
  /**
   * Locks the control plane: every `/_mock` request, sessions' included, must carry
   * `Authorization: Bearer <controlToken>` or gets a 401. The API itself stays as it is.
   *
   * @example
   * const server = await startMockServer({ controlToken: process.env.CONTROL_TOKEN })
   * await fetch(`${server.url}/_mock/usage`, { headers: { Authorization: `Bearer ${process.env.CONTROL_TOKEN}` } })
   * @default undefined (the control plane is open to whoever reaches the server)
   */
  controlToken?: string
}

/** Who may use the control plane: undefined lets every request through. */
type ControlGate = ((headers: IncomingMessage['headers'] | undefined) => boolean) | undefined

/** A running standalone server. */
export interface RunningMockServer {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string
  readonly service: MockService
  /**
   * The root service's data, changed at run time: `service.data` (see {@link MockService.data});
   * `server.service.session(name).data` is a session's.
   * @example
   * server.data.putExchange({ name: 'kraken', creation_date: '2013-09-10', closing_date: null })
   */
  readonly data: DataControl
  readonly server: Server
  /** Stops accepting and closes idle connections. */
  close(): Promise<void>
}

const EMPTY = Buffer.alloc(0)

function send(res: ServerResponse, answer: MockResponse, open?: OpenFaults): void {
  // The parser refused the rest of this connection's bytes and already answered (see client-error.ts).
  // (res.socket is null while a pipelined response waits its turn: the request's socket is the one to ask.)
  const socket = res.req.socket
  if (!socket || socket.destroyed || socket.writableEnded) return
  // Encoded once: the length and the bytes written come from the same buffer.
  const body =
    answer.status === 204 || answer.delivery?.kind === 'hang' || answer.delivery?.kind === 'reset' || answer.networkError
      ? EMPTY
      : isTextAnswer(answer)
        ? Buffer.from(answer.body)
        : Buffer.from(JSON.stringify(answer.body))
  const head = () => res.writeHead(answer.status, { ...CORS_HEADERS, ...answer.headers, 'content-length': body.length })
  if (answer.delivery && open) return deliver(res, answer.delivery, head, body, open, () => {})
  head()
  res.end(body)
}

const tooLarge = (method: string, path: string, limit: number) =>
  json(413, { detail: `Request body too large: ${method} ${path} takes at most ${limit} bytes (${limit >= 1 << 20 ? `${limit / (1 << 20)} MiB` : `${limit / 1024} KiB`})` })

/**
 * Reads a control request's body, or undefined past `limit` bytes: the bytes are counted as they
 * arrive, and past the limit nothing more is kept (the rest is drained and dropped, so the answer
 * still reaches the client).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) {
      req.resume()
      return resolve(undefined)
    }
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      chunks.length = 0
      req.off('data', onData)
      req.resume()
      resolve(undefined)
    }
    req.on('data', onData)
    req.once('end', () => resolve(Buffer.concat(chunks, size)))
    req.once('error', reject)
  })
}

/**
 * The control plane for test suites in any language (`/_mock/...`). A request carrying an `Origin`
 * header comes from a browser page, which could send a simple cross-origin POST and wipe a local
 * server's state: it is refused.
 */
async function controlEndpoint(service: MockService, gate: ControlGate, req: IncomingMessage | undefined, method: string, path: string, query: string, signal?: AbortSignal): Promise<MockResponse> {
  // The token first: a stranger's body is never read, so it cannot make the server buffer 64 MiB.
  if (gate && !gate(req?.headers)) return UNAUTHORIZED
  if (req?.headers.origin !== undefined) return json(403, { detail: 'The /_mock endpoints refuse cross-origin browser requests' })
  let body = ''
  const limit = bodyLimitOf(method, path)
  if (req && limit !== undefined) {
    const read = await readBody(req, limit)
    if (read === undefined) return tooLarge(method, path, limit)
    body = read.toString('utf8')
  }
  return handleControl(service, { method, path, query, body, signal })
}

/** Answers one request: the control plane, or the service itself; under `/_sessions/NAME/`, that session's. */
async function route(root: MockService, gate: ControlGate, req: IncomingMessage | undefined, method: string, url: string, signal?: AbortSignal): Promise<MockResponse> {
  let service = root
  const session = splitSessionUrl(url)
  if (session && !('name' in session)) return session
  if (session) {
    try {
      service = root.session(session.name)
    } catch {
      return tooManySessions()
    }
    url = session.rest
  }
  const queryAt = url.indexOf('?')
  const path = queryAt < 0 ? url : url.slice(0, queryAt)
  // The service stamps its own answers; control answers carry its clock in `Date` too.
  if (isControlPath(path)) return withDate(await controlEndpoint(service, gate, req, method, path, queryAt < 0 ? '' : url.slice(queryAt + 1), signal), service.clock.now())
  return service.handle({ method, url, headers: req?.headers ?? {} })
}

/** The request listener of the standalone server, for mounting on a server of your own. */
export function createRequestListener(service: MockService, options: Pick<MockServerOptions, 'latency' | 'controlToken'> = {}) {
  return listenerOf(service, options.latency ?? 0, new OpenFaults(), gateOf(options.controlToken))
}

const gateOf = (token: string | undefined): ControlGate => (token === undefined ? undefined : controlTokenCheck(token))

function listenerOf(service: MockService, latency: number, open: OpenFaults, gate: ControlGate) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    try {
      if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
        req.resume()
        res.writeHead(204, preflightHeaders(req.headers['access-control-request-headers']))
        res.end()
        return
      }
      const answer = await route(service, gate, req, method, url, open.signal)
      // Whatever body is left unread is drained, so the connection can serve the next request.
      req.resume()
      if (latency > 0) await sleep(latency)
      send(res, answer, open)
    } catch (error) {
      // A client that hangs up mid-request is no server error: one plain line, no stack.
      if (req.destroyed && (error as { code?: string }).code === 'ECONNRESET') {
        console.error(`market-candles mock server: a client closed its connection before its ${method} request was read whole`)
        return void res.destroy()
      }
      // A bug in the reference service must show as a 500, never as a hung request.
      console.error('market-candles mock server:', error)
      if (!res.headersSent) send(res, json(500, { detail: 'Internal Server Error' }))
      else res.destroy()
    }
  }
}

/** Makes `server` answer the requests Node's HTTP parser refuses in JSON too (contract: other-requests). */
export function answerParserErrors(server: Server, service: MockService, options: Pick<MockServerOptions, 'controlToken'> = {}): void {
  const gate = gateOf(options.controlToken)
  server.on('clientError', createClientErrorListener((method, path) => route(service, gate, undefined, method, path), CORS_HEADERS))
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
  const { service: given, port = 0, host = '127.0.0.1', latency, controlToken, ...serviceOptions } = options
  // Checked before anything starts; the token is kept only inside the check.
  const gate = gateOf(controlToken)
  const service = given ?? createMockService(serviceOptions)
  // The Host header does not matter to the service; Node would refuse its absence with an empty 400.
  // Answers a fault keeps open (a hang, a slow body) end when the server closes.
  const open = new OpenFaults()
  const server = nodeHttp.createServer({ requireHostHeader: false }, listenerOf(service, latency ?? 0, open, gate))
  server.on('clientError', createClientErrorListener((method, path) => route(service, gate, undefined, method, path), CORS_HEADERS))
  server.keepAliveTimeout = 5000
  const url = await listenUrl(server, port, host)
  return {
    url,
    service,
    data: service.data,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeIdleConnections()
        open.close()
      }),
  }
}
