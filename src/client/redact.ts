/** Replaces every occurrence of `secret` in the strings of `value`, deeply; other values pass through. */
export function redact<T>(value: T, secret: string | undefined): T {
  if (!secret) return value
  if (typeof value === 'string') return value.replaceAll(secret, '[redacted]') as T
  if (Array.isArray(value)) return value.map((v) => redact(v, secret)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, secret)])) as T
  }
  return value
}

/**
 * A copy of an error chain that holds only names, messages and codes: a runtime's or a custom
 * fetch's error may reference the request, whose headers hold the key.
 */
export function safeCause(error: unknown, secret: string | undefined, depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 4) return undefined
  const copy = new Error(redact(error.message, secret), { cause: safeCause(error.cause, secret, depth + 1) })
  copy.name = error.name
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, { code })
  return copy
}
