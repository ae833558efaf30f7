import { HttpResponse, http, type HttpHandler } from 'msw'
import { DEFAULT_BASE_URL } from '../../src/contract/index.js'
import type { MockService } from '../core/service/service.js'
import { answer, type AnswerContext } from './answer.js'
import { BROWSER_FAULT_KINDS, MSW_FAULT_KINDS } from './fault-body.js'

// Node's Buffer marks the runtime where a handler's answer can be a stream cut or slowed at will.
const inNode = typeof (globalThis as { Buffer?: unknown }).Buffer === 'function'

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
  const { pattern, context } = handlersContext(service, options)
  return [
    http.all(pattern, async ({ request }) => {
      const res = await answer(request, context)
      return res === 'network-error' ? HttpResponse.error() : res
    }),
  ]
}

/** The URL pattern the handlers intercept and what they answer with. */
export function handlersContext(service: MockService, options: MockHandlersOptions): { pattern: string; context: AnswerContext } {
  // A fault these handlers cannot deliver is refused when added, never skipped in silence.
  if (inNode) service.faults.capabilities.restrict('MSW adapter', MSW_FAULT_KINDS, 'MSW answers without a socket, so it cannot send a TCP reset; use network_error')
  else service.faults.capabilities.restrict('MSW adapter (browser)', BROWSER_FAULT_KINDS, "a browser's Service Worker answers whole responses only")
  const base = new URL(options.baseUrl ?? DEFAULT_BASE_URL)
  const prefix = base.pathname.replace(/\/+$/, '')
  return { pattern: `${base.origin}${prefix}/*`, context: { service, prefix, latency: options.latency ?? 0 } }
}
