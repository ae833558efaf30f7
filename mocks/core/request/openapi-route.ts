import { buildOpenApiDocument } from '../../../src/openapi/index.js'
import { json } from '../message/respond.js'
import type { MockResponse } from '../message/types.js'

/** Where every adapter serves the OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json'

let document: Record<string, unknown> | undefined

/**
 * `GET /openapi.json`: the service's OpenAPI 3.1 document. Public (no key), never counted, never
 * rate limited.
 */
export function openApiDocument(): MockResponse {
  // Built on first use: most test suites never ask for it.
  document ??= buildOpenApiDocument()
  return json(200, document)
}
