import type { ValidationIssue } from '../../schemas/index.js'

const MAX_TEXT = 200

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text)
const jsonText = (v: unknown) => clip(JSON.stringify(v) ?? String(v))

/**
 * One item of a `detail` array as a ValidationIssue, whatever its shape: pydantic v2 (`type`,
 * `loc`, `msg`, `input`, `ctx`), pydantic v1 (`loc`, `msg`, `type`, no `input`), or anything else
 * (kept whole in `msg`, so nothing said is lost).
 */
function issueOf(item: unknown): ValidationIssue {
  if (!isRecord(item)) return { type: 'unknown', loc: [], msg: typeof item === 'string' ? clip(item) : jsonText(item), input: item }
  const loc = Array.isArray(item.loc) ? item.loc.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number') : typeof item.loc === 'string' ? [item.loc] : []
  const msg = typeof item.msg === 'string' ? item.msg : typeof item.message === 'string' ? item.message : jsonText(item)
  const issue: ValidationIssue = { type: typeof item.type === 'string' ? item.type : 'unknown', loc, msg, input: item.input }
  if (isRecord(item.ctx)) issue.ctx = item.ctx
  return issue
}

/**
 * What an error answer says, from a body of any shape (D13): `{"detail": "..."}` (the reference),
 * `{"detail": [...]}` of pydantic v1 or v2, a `detail` of another type, `{"message"}` or
 * `{"error"}` strings, a bare JSON string, text that is not JSON (a proxy's page), or nothing.
 * Never throws; long texts are cut at 200 characters.
 */
export function errorDetailOf(text: string): string | ValidationIssue[] | undefined {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    const plain = text.trim()
    return plain === '' ? undefined : clip(plain)
  }
  if (typeof body === 'string') return body === '' ? undefined : clip(body)
  if (!isRecord(body)) return body === null ? undefined : jsonText(body)
  const { detail } = body
  if (typeof detail === 'string') return detail
  if (Array.isArray(detail)) return detail.map(issueOf)
  if (detail !== undefined && detail !== null) return jsonText(detail)
  for (const key of ['message', 'error', 'title']) if (typeof body[key] === 'string') return body[key]
  return jsonText(body)
}
