import { HttpResponse, delay, http, type HttpHandler } from 'msw'
import { DEFAULT_BASE_URL } from '../../src/contract/index.js'
import { CORS_HEADERS, preflightHeaders } from '../core/cors.js'
import type { MockService } from '../core/service.js'
import { BytePool, encodeBody } from './encode-body.js'

/** Options of {@link createHandlers}. */
export interface MockHandlersOptions {
  /** The base URL to intercept; a path prefix is allowed (`https://host/api`). @default DEFAULT_BASE_URL */
  baseUrl?: string
  /** Delays every response by this many milliseconds. @default 0 */
  latency?: number
}

/**
 * MSW 3 handlers that answer every request under `baseUrl` from a reference service, with the
 * standalone server's CORS headers.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * const server = setupServer(...createHandlers(createMockService(), { baseUrl: 'http://localhost:8080' }))
 */
export function createHandlers(service: MockService, options: MockHandlersOptions = {}): HttpHandler[] {
  const base = new URL(options.baseUrl ?? DEFAULT_BASE_URL)
  const prefix = base.pathname.replace(/\/+$/, '')
  const latency = options.latency ?? 0
  const pool = new BytePool()
  return [
    http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
      // Every OPTIONS is a preflight here: happy-dom's arrives without Origin and
      // Access-Control-Request-Method (contract: other-requests).
      if (request.method === 'OPTIONS') {
        return new HttpResponse(null, { status: 204, headers: preflightHeaders(request.headers.get('access-control-request-headers')) })
      }
      const url = new URL(request.url)
      const res = await service.handle({ method: request.method, url: url.pathname.slice(prefix.length) + url.search, headers: request.headers })
      if (latency > 0) await delay(latency)
      if (res.networkError) return HttpResponse.error()
      const headers = { ...CORS_HEADERS, 'content-type': 'application/json', ...res.headers }
      return new HttpResponse(res.status === 204 ? null : encodeBody(res.body, pool), { status: res.status, headers })
    }),
  ]
}
