import type { ValidationIssue } from '../../../src/schemas/index.js'
import type { MockResponse } from './types.js'

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): MockResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body }
}

/** An error body: `{"detail": "..."}` naming the offending value (contract: error-bodies). */
export const fail = (status: number, detail: string, headers?: Record<string, string>): MockResponse =>
  json(status, { detail }, headers)

/** A 422: `{"detail": [issues]}` (contract: error-bodies). */
export const invalid = (issues: ValidationIssue[]): MockResponse => json(422, { detail: issues })
