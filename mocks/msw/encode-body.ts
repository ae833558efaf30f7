// In Node (Buffer) the body goes as bytes in a one-chunk stream, its length known; in a browser as text.
const hasBuffer = typeof (globalThis as { Buffer?: unknown }).Buffer === 'function'

/** An answer's body as MSW sends it, with its length in bytes when known. */
export interface EncodedBody {
  body: BodyInit
  /** The body's byte length (Node), for Content-Length; undefined for a string body. */
  length?: number
}

/** The body of an answer: `JSON.stringify(body)`, in Node as bytes in a one-chunk stream. */
export function encodeBody(body: unknown): EncodedBody {
  if (!hasBuffer) return { body: JSON.stringify(body) }
  const own = encodeBytes(body)
  return { body: oneChunkStream(own), length: own.byteLength }
}

/** The bytes of `JSON.stringify(body)`. */
export function encodeBytes(body: unknown): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(body))
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

