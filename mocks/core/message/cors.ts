/*
 * CORS for the HTTP adapters (contract: other-requests): a page on another origin can call the
 * service and read the headers it needs to back off. The standalone server and the MSW handlers
 * send the same headers, from here.
 */

/** Sent on every answer. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate, Date',
}

/** The headers of a 204 answer to a preflight; `requested` is its `Access-Control-Request-Headers`. */
export function preflightHeaders(requested: string | null | undefined): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': 'GET, OPTIONS',
    'access-control-allow-headers': requested || 'X-API-Key',
    'access-control-max-age': '600',
  }
}
