import type { MockResponse } from '../message/types.js'
import { writeErrorBody } from './error-bodies.js'
import { writeRateLimitHeaders } from './rate-limit-headers.js'
import { writeRecords } from './records.js'
import { isReference } from './resolve-variant.js'
import type { ResolvedVariant } from './service-variant.js'

/** The detail of the reference's 401 for a candle request without a key (D2). */
export const MISSING_KEY_DETAIL = 'Not authenticated'

/**
 * The reference's answer to a request of the public interface as the variant writes it. The
 * reference itself passes unchanged (the same object). `records` marks an endpoint's answer,
 * whose 200 body is a list of records (not the OpenAPI document).
 */
export function applyVariant(res: MockResponse, v: ResolvedVariant, records: boolean): MockResponse {
  if (isReference(v) || res.networkError) return res
  let out = res
  if (v.missingKey === 403 && out.status === 401 && (out.body as { detail?: unknown } | null)?.detail === MISSING_KEY_DETAIL) {
    // FastAPI's APIKeyHeader: 403 {"detail": "Not authenticated"}, no challenge.
    const { 'www-authenticate': _challenge, ...headers } = out.headers
    out = { ...out, status: 403, headers }
  }
  const headers = writeRateLimitHeaders(out.headers, v.rateLimitHeaders)
  if (headers !== out.headers) out = { ...out, headers }
  if (out.status === 200 && records) {
    const body = writeRecords(out.body, v)
    if (body !== out.body) out = { ...out, body }
  }
  return writeErrorBody(out, v.errorBodies)
}
