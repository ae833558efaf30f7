import { buildOpenApiDocument } from '../../src/openapi/index.js'
import { fail, json } from './respond.js'
import type { MockResponse } from './types.js'

/** Where every adapter serves the OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json'

let document: Record<string, unknown> | undefined

/**
 * `GET /openapi.json`: the service's OpenAPI 3.1 document. Public (no key), never counted, never
 * rate limited; another method is a 405 like on any known path.
 */
export function openApiRoute(method: string): MockResponse {
  if (method !== 'GET') return fail(405, 'Method Not Allowed', { allow: 'GET' })
  // Built on first use: most test suites never ask for it.
  document ??= buildOpenApiDocument()
  return json(200, document)
}
