/*
 * Another deployment of interface.md, made from the reference by rewriting its answers the way
 * another web stack fills the gaps (D13): timestamps in another ISO 8601 form, null fields left
 * out, fields the interface does not list. Used until the reference's own variants serve them.
 */

/** How the rewritten deployment writes its 200 bodies. */
export interface Rewrite {
  /** The text of each timestamp field, from the reference's `YYYY-MM-DDTHH:MM:SSZ`. */
  timestamp?: (reference: string) => string
  /** Leaves `flag` and `closing_date` out when null. */
  omitNulls?: boolean
  /** Adds `id` and `ingested_at` to every record. */
  extraFields?: boolean
}

/** The forms a Python stack and others write a UTC instant in, from the reference's `...Z`. */
export const TIMESTAMP_FORMS: Record<string, (reference: string) => string> = {
  '+00:00': (ts) => ts.replace('Z', '+00:00'),
  '.000000+00:00': (ts) => ts.replace('Z', '.000000+00:00'),
  '.000Z': (ts) => ts.replace('Z', '.000Z'),
  '+0000': (ts) => ts.replace('Z', '+0000'),
  '-00:00': (ts) => ts.replace('Z', '-00:00'),
  'z': (ts) => ts.replace('Z', 'z'),
  '.000000000Z': (ts) => ts.replace('Z', '.000000000Z'),
}

const TIMESTAMP_FIELDS = ['close_ts', 'first_close_ts', 'last_close_ts']

function rewriteRecord(record: Record<string, unknown>, rewrite: Rewrite, i: number): Record<string, unknown> {
  const out: Record<string, unknown> = rewrite.extraFields ? { id: i + 1 } : {}
  for (const [key, value] of Object.entries(record)) {
    if (rewrite.omitNulls && value === null && (key === 'flag' || key === 'closing_date')) continue
    out[key] = rewrite.timestamp && TIMESTAMP_FIELDS.includes(key) && typeof value === 'string' ? rewrite.timestamp(value) : value
  }
  if (rewrite.extraFields) out.ingested_at = '2026-11-28T00:00:00.123456+00:00'
  return out
}

/** A fetch that answers as `inner` does, its 200 JSON arrays rewritten. */
export function rewritingFetch(inner: typeof fetch, rewrite: Rewrite): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init)
    if (res.status !== 200) return res
    const body = (await res.json()) as unknown
    const rewritten = Array.isArray(body) ? body.map((r, i) => (typeof r === 'object' && r !== null ? rewriteRecord(r as Record<string, unknown>, rewrite, i) : r)) : body
    const headers = new Headers(res.headers)
    headers.delete('content-length')
    return new Response(JSON.stringify(rewritten), { status: res.status, headers })
  }
}

/** A fetch that answers every request with this status and body (error bodies of any shape). */
export function answering(status: number, body: string, contentType = 'application/json'): typeof fetch {
  return async () => new Response(body === '' ? null : body, { status, headers: body === '' ? {} : { 'content-type': contentType } })
}
