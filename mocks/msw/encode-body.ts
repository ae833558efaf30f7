import { BytePool } from '../server/byte-pool.js'
import { encodeJson } from '../server/encode-json.js'

// Node's Buffer marks the runtime where the server's encoder runs (it also generates code, which a
// page's Content-Security-Policy may forbid): there a 1000-candle page is encoded in a fraction of
// JSON.stringify's time. In a browser the body is plain JSON.stringify.
const hasBuffer = typeof (globalThis as { Buffer?: unknown }).Buffer === 'function'

/**
 * The body of an answer as MSW sends it: `JSON.stringify(body)`, as bytes in Node. The bytes are
 * the answer's own (exactly sized, sharing nothing): the encoder's pooled buffer goes straight
 * back to the pool, so the next page is encoded without allocating and growing a buffer again.
 */
export function encodeBody(body: unknown, pool: BytePool): BodyInit {
  if (!hasBuffer) return JSON.stringify(body)
  const encoded = encodeJson(body, pool)
  const own = Uint8Array.prototype.slice.call(encoded) as Uint8Array<ArrayBuffer>
  pool.give(encoded)
  return own
}

export { BytePool }
