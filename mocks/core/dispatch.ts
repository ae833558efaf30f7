import { rawQueryOf } from '../../src/contract/index.js'
import { checkResponse } from './check-response.js'
import type { ServiceContext } from './context.js'
import type { FaultQueue } from './faults.js'
import { fail } from './respond.js'
import { ROUTES } from './routes.js'
import type { MockRequest, MockResponse } from './types.js'

/** How the service handles a request, besides its state. */
export interface DispatchOptions {
  readonly faults: FaultQueue
  /** Check every answer of an endpoint against the shared schemas. */
  readonly validateResponses: boolean
}

/**
 * Answers one request: an unknown path is 404 and any method but GET 405 (contract: other-requests),
 * then an injected fault if one matches, else the route's answer.
 */
export async function dispatch(ctx: ServiceContext, request: MockRequest, options: DispatchOptions): Promise<MockResponse> {
  const url = parseUrl(request.url)
  const route = url && ROUTES.get(url.pathname)
  if (!url || !route) return fail(404, 'Not Found')
  if (request.method !== 'GET') return fail(405, 'Method Not Allowed', { allow: 'GET' })
  // Injected faults are wrong on purpose: only the service's own answers are checked.
  const fault = options.faults.take(url.pathname)
  if (fault) return fault
  const res = await route.handle(ctx, { query: rawQueryOf(url.searchParams), headers: request.headers })
  if (options.validateResponses && route.endpoint) checkResponse(route.endpoint, res)
  return res
}

function parseUrl(url: string): URL | undefined {
  try {
    return url.startsWith('/') ? new URL(`http://service.invalid${url}`) : new URL(url)
  } catch {
    return undefined
  }
}
