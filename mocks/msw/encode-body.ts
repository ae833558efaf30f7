import { BytePool } from '../server/byte-pool.js'
import { encodeJson } from '../server/encode-json.js'

// Node's Buffer marks the runtime where the server's encoder runs (it also generates code, which a
// page's Content-Security-Policy may forbid): there a 1000-candle page is encoded in a fraction of
// JSON.stringify's time. In a browser the body is plain JSON.stringify.
const hasBuffer = typeof (globalThis as { Buffer?: unknown }).Buffer === 'function'

/**
 * The body of an answer as MSW sends it: `JSON.stringify(body)`, as bytes in Node. A response keeps
 * its buffer (nothing tells when the caller has read it), so the pool only sizes them.
 */
export function encodeBody(body: unknown, pool: BytePool): BodyInit {
  return hasBuffer ? (encodeJson(body, pool) as Uint8Array<ArrayBuffer>) : JSON.stringify(body)
}

export { BytePool }
