import { API_KEY_HEADER } from '../../contract/endpoints.js'

/**
 * Checks a `headers` option (client or request): a plain object of string values. The key header is
 * refused: the key comes from the client's `apiKey` only, is sent on the candle endpoints only, and a
 * request cannot send another account's key or send one to the public endpoints.
 */
export function checkHeaders(headers: unknown, where: string): Record<string, string> {
  if (headers === undefined) return {}
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers) || headers instanceof Headers) {
    throw new TypeError(`${where} must be a plain object of header names to string values`)
  }
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === API_KEY_HEADER.toLowerCase()) {
      throw new TypeError(`${where} must not set ${API_KEY_HEADER}: the key is the client's apiKey option (create one client per key)`)
    }
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new TypeError(`${where}: '${name}' is not a valid header name`)
    // The value is never quoted in the message: it may be a secret of the caller's.
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new TypeError(`${where}['${name}'] must be a string without line breaks`)
    out[name] = value
  }
  return out
}
