import type { RejectionReason } from './journal-entry.js'
import type { MockResponse } from '../message/types.js'

const RULE_OF: Record<number, 'authentication' | 'resolution' | 'plan'> = { 401: 'authentication', 403: 'plan', 404: 'resolution' }

/**
 * Why the service refused a request, read from its answer (contract: order-of-checks): the fields
 * of a 422, the window of a 429, the detail of a 401, 403 or 404. `routing` marks the dispatcher's
 * own 404 (unknown path) and 405.
 */
export function reasonOf(res: MockResponse, routing: boolean): RejectionReason | null {
  const detail = (res.body as { detail?: unknown } | null)?.detail
  if (routing) return { rule: 'routing', detail: String(detail) }
  switch (res.status) {
    case 422:
      return { rule: 'validation', fields: Array.isArray(detail) ? [...new Set(detail.map((issue: { loc: unknown[] }) => String(issue.loc.at(-1))))] : [] }
    case 429:
      return { rule: 'rate_limit', limit: Number(res.headers['ratelimit-limit']), retry_after: Number(res.headers['retry-after']) }
    case 401:
    case 403:
    case 404:
      return { rule: RULE_OF[res.status]!, detail: String(detail) }
    default:
      return null
  }
}
