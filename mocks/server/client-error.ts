import type { Duplex } from 'node:stream'
import type { MockResponse } from '../core/message/types.js'
import { nodeHttp } from './node-http.js'

/** What Node's HTTP parser reports with a request it cannot parse. */
interface ParserError extends Error {
  code?: string
  reason?: string
  rawPacket?: Buffer
}

/** Answers a request from its method and path alone (no headers, no body). */
export type RouteByLine = (method: string, path: string) => Promise<MockResponse>

// `TOKEN SP request-target SP HTTP/1.x`: a request line that only the method token spoils.
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/[\x21-\x7e]*) HTTP\/1\.[01]\r?\n/

/** The status and detail of a request Node's parser refused, in the service's own error format. */
function describe(error: ParserError): { status: number; detail: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'Request Header Fields Too Large: the request line and headers exceed 16 KiB' }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, detail: 'Content Too Large: chunk extensions exceed the limit' }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'Request Timeout: the request did not arrive in time' }
    case 'HPE_INVALID_METHOD':
      return { status: 400, detail: 'Bad Request: malformed request line' }
    case 'HPE_INVALID_URL':
      return { status: 400, detail: 'Bad Request: the request path holds a character outside visible ASCII; percent-encode it' }
    case 'HPE_INVALID_VERSION':
      return { status: 400, detail: 'Bad Request: unsupported HTTP version; use HTTP/1.1' }
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_HEADER_VALUE':
      return { status: 400, detail: 'Bad Request: malformed header line' }
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_STRICT':
      return { status: 400, detail: 'Bad Request: malformed chunked body' }
    default:
      return { status: 400, detail: `Bad Request: ${error.reason ?? 'malformed HTTP request'}` }
  }
}

function write(socket: Duplex, answer: MockResponse, extraHeaders: Record<string, string>): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const body = Buffer.from(JSON.stringify(answer.body))
  const headers = { ...extraHeaders, ...answer.headers, 'content-type': 'application/json', 'content-length': String(body.length), connection: 'close' }
  const head = `HTTP/1.1 ${answer.status} ${nodeHttp.STATUS_CODES[answer.status] ?? 'Error'}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`
  // end() flushes the answer, then closes our side; destroy() after it, so a client that keeps its
  // side open cannot hold the socket.
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]), () => socket.destroy())
}

/**
 * A `clientError` listener: every request Node's parser refuses still gets its status with a JSON
 * `{"detail": ...}` body, and the connection closes (contract: other-requests). A well-formed request
 * line whose method token Node does not know (`get`, `FETCH`) is routed like any other method on that
 * path: 405 with `Allow` on a known path, 404 elsewhere.
 */
export function createClientErrorListener(route: RouteByLine, extraHeaders: Record<string, string>) {
  return (error: ParserError, socket: Duplex): void => {
    // The client is gone (ECONNRESET) or a response is already on the wire: nothing sensible to send.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    const line = error.code === 'HPE_INVALID_METHOD' ? REQUEST_LINE.exec(error.rawPacket?.toString('latin1') ?? '') : null
    if (line) {
      route(line[1]!, line[2]!).then(
        (answer) => write(socket, answer, extraHeaders),
        () => socket.destroy(),
      )
      return
    }
    const { status, detail } = describe(error)
    write(socket, { status, headers: {}, body: { detail } }, extraHeaders)
  }
}
