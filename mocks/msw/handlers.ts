import { HttpResponse, delay, http, type HttpHandler, type JsonBodyType } from 'msw'
import { DEFAULT_BASE_URL } from '../../src/contract/index.js'
import type { MockService } from '../core/service.js'

/** Options of {@link createHandlers}. */
export interface MockHandlersOptions {
  /** The base URL to intercept; a path prefix is allowed (`https://host/api`). @default DEFAULT_BASE_URL */
  baseUrl?: string
  /** Delays every response by this many milliseconds. @default 0 */
  latency?: number
}

/**
 * MSW 3 handlers that answer every request under `baseUrl` from a reference service.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * const server = setupServer(...createHandlers(createMockService(), { baseUrl: 'http://localhost:8080' }))
 */
export function createHandlers(service: MockService, options: MockHandlersOptions = {}): HttpHandler[] {
  const base = new URL(options.baseUrl ?? DEFAULT_BASE_URL)
  const prefix = base.pathname.replace(/\/+$/, '')
  const latency = options.latency ?? 0
  return [
    http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
      const url = new URL(request.url)
      const res = await service.handle({ method: request.method, url: url.pathname.slice(prefix.length) + url.search, headers: request.headers })
      if (latency > 0) await delay(latency)
      if (res.networkError) return HttpResponse.error()
      return HttpResponse.json(res.body as JsonBodyType, { status: res.status, headers: res.headers })
    }),
  ]
}
