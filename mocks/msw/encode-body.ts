import { BytePool } from '../core/encode/byte-pool.js'
import { encodeJson } from '../core/encode/encode-json.js'

// Node's Buffer marks the runtime where the server's encoder runs (it also generates code, which a
// page's Content-Security-Policy may forbid): there a 1000-candle page is encoded in a fraction of
// JSON.stringify's time. In a browser the body is plain JSON.stringify.
const hasBuffer = typeof (globalThis as { Buffer?: unknown }).Buffer === 'function'

/** An answer's body as MSW sends it, with its length in bytes when known. */
export interface EncodedBody {
  body: BodyInit
  /** The body's byte length (Node), for Content-Length; undefined for a string body. */
  length?: number
}

/**
 * The body of an answer: `JSON.stringify(body)`, in Node as bytes in a one-chunk stream. The bytes
 * are the answer's own (exactly sized, sharing nothing): the encoder's pooled buffer goes straight
 * back to the pool, so the next page is encoded without allocating and growing a buffer again.
 */
export function encodeBody(body: unknown, pool: BytePool): EncodedBody {
  if (!hasBuffer) return { body: JSON.stringify(body) }
  const own = encodeBytes(body, pool)
  return { body: oneChunkStream(own), length: own.byteLength }
}

/** The bytes of `JSON.stringify(body)`, the answer's own. */
export function encodeBytes(body: unknown, pool: BytePool): Uint8Array<ArrayBuffer> {
  if (!hasBuffer) return new TextEncoder().encode(JSON.stringify(body))
  const encoded = encodeJson(body, pool)
  const own = Uint8Array.prototype.slice.call(encoded) as Uint8Array<ArrayBuffer>
  pool.give(encoded)
  return own
}

/**
 * A plain (not byte) stream of one chunk. A Response copies a byte-array body when it is built,
 * and MSW clones every mocked response (a tee, which copies each chunk of a byte stream): a plain
 * stream's chunk is handed on as it is, two copies of a 300 KB page fewer.
 */
function oneChunkStream(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes)
      controller.close()
    },
  })
}

export { BytePool }
