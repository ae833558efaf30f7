import { delay } from 'msw'
import { CORS_HEADERS, preflightHeaders } from '../core/message/cors.js'
import type { MockService } from '../core/service/service.js'
import { encodeBody, encodeBytes } from './encode-body.js'
import { faultBody, untilAborted } from './fault-body.js'
import { isTextAnswer } from '../core/variant/text-answer.js'

/** What the handlers need to answer a request under their base URL. */
export interface AnswerContext {
  service: MockService
  /** The base URL's path prefix, without a trailing slash. */
  prefix: string
  latency: number
}

/**
 * The service's answer to a request, as a Response with the standalone server's CORS headers, or
 * `'network-error'` for an injected broken connection. Shared by the MSW handlers and `mock.fetch`.
 */
export async function answer(request: Request, context: AnswerContext): Promise<Response | 'network-error'> {
  // Every OPTIONS is a preflight here: happy-dom's arrives without Origin and
  // Access-Control-Request-Method (contract: other-requests).
  if (request.method === 'OPTIONS') {
    return new Response(null, { status: 204, headers: preflightHeaders(request.headers.get('access-control-request-headers')) })
  }
  const url = new URL(request.url)
  const res = await context.service.handle({ method: request.method, url: url.pathname.slice(context.prefix.length) + url.search, headers: request.headers })
  if (context.latency > 0) await delay(context.latency)
  const delivery = res.delivery
  if (res.networkError || delivery?.kind === 'network_error' || delivery?.kind === 'reset') return 'network-error'
  if (delivery?.kind === 'hang') {
    await untilAborted(request.signal)
    return 'network-error'
  }
  const headers: Record<string, string> = { ...CORS_HEADERS, 'content-type': 'application/json', ...res.headers }
  const text = isTextAnswer(res) ? new TextEncoder().encode(res.body) : undefined
  if (delivery?.kind === 'truncate' || delivery?.kind === 'slow_body') {
    const bytes = text ?? encodeBytes(res.body)
    headers['content-length'] = String(bytes.byteLength)
    return new Response(faultBody(bytes, delivery, request.signal), { status: res.status, headers })
  }
  const encoded = res.status === 204 ? undefined : text ? { body: text, length: text.byteLength } : encodeBody(res.body)
  // Content-Length as the standalone server sends it: MSW's interception in Node ends the
  // connection after a body of unknown length, so without it every request opened a new one
  // (a TLS handshake for https).
  if (encoded?.length !== undefined) headers['content-length'] = String(encoded.length)
  return new Response(encoded?.body ?? null, { status: res.status, headers })
}
