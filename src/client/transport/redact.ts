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
 * fetch's error may reference the request, whose headers hold the key. An error from another realm
 * (an iframe, a `vm` context) fails `instanceof Error` but is copied all the same; a thrown string or
 * other value becomes an `Error` with that value as its message.
 */
export function safeCause(error: unknown, secret: string | undefined, depth = 0): Error | undefined {
  if (error === undefined || error === null || depth > 4) return undefined
  if (typeof error !== 'object' && typeof error !== 'function') {
    const copy = new Error(redact(String(error), secret))
    copy.name = 'NonErrorCause'
    return copy
  }
  try {
    return copyError(error as ErrorLike, secret, depth)
  } catch {
    // A getter that throws: keep nothing of it rather than fail the error being built.
    return new Error('unreadable cause')
  }
}

type ErrorLike = { name?: unknown; message?: unknown; code?: unknown; cause?: unknown }

function copyError(source: ErrorLike, secret: string | undefined, depth: number): Error {
  const error = source as object
  const message = typeof source.message === 'string' ? source.message : safeString(error)
  const copy = new Error(redact(message, secret), { cause: safeCause(source.cause, secret, depth + 1) })
  if (typeof source.name === 'string' && source.name !== '') copy.name = redact(source.name, secret)
  const code = source.code
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, { code: redact(code, secret) })
  return copy
}

// An object without a message: its own toString when it has one, else its tag. A throwing getter or
// toString must not replace the connection error with its own.
function safeString(value: object): string {
  try {
    const text = String(value)
    return text === '[object Object]' ? 'non-error object thrown' : text
  } catch {
    return 'non-error object thrown'
  }
}
