import type { ResolvedVariant } from './service-variant.js'

const RATE_LIMIT_FIELDS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']

/** An answer's headers without the rate-limit headers the variant does not send. */
export function writeRateLimitHeaders(headers: Record<string, string>, form: ResolvedVariant['rateLimitHeaders']): Record<string, string> {
  if (form === 'all') return headers
  const dropped = form === 'none' ? [...RATE_LIMIT_FIELDS, 'retry-after'] : RATE_LIMIT_FIELDS
  if (!dropped.some((name) => name in headers)) return headers
  const kept: Record<string, string> = {}
  for (const name in headers) if (!dropped.includes(name)) kept[name] = headers[name]!
  return kept
}
