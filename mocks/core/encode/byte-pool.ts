/**
 * Response buffers reused across requests. A fresh buffer per 300 KB page costs page faults and
 * the kernel's zeroing, about as much as a quarter of encoding it; a pooled buffer costs neither.
 * A buffer comes back only when its response has finished, that is once every byte was handed to
 * the kernel, so no response ever shares bytes with another one still being sent.
 */
/** Buffers kept for reuse, at most. */
const MAX_FREE = 8
/** Larger buffers are left to the garbage collector. */
const MAX_BYTES = 16 << 20

export class BytePool {
  #free: ArrayBuffer[] = []
  // Only buffers this pool made come back to it: a Buffer from elsewhere may be a slice of Node's
  // shared pool.
  #own = new WeakSet<ArrayBuffer>()

  /** A buffer of at least `minBytes`, its contents undefined. */
  take(minBytes: number): Uint8Array {
    while (this.#free.length > 0) {
      const buffer = this.#free.pop()!
      if (buffer.byteLength >= minBytes) return new Uint8Array(buffer)
    }
    const buffer = new ArrayBuffer(minBytes)
    this.#own.add(buffer)
    return new Uint8Array(buffer)
  }

  /** Gives back the buffer under `bytes` (any view of it); anything else is ignored. */
  give(bytes: Uint8Array): void {
    const buffer = bytes.buffer
    if (!(buffer instanceof ArrayBuffer) || !this.#own.has(buffer) || buffer.byteLength > MAX_BYTES) return
    if (this.#free.length >= MAX_FREE || this.#free.includes(buffer)) return
    this.#free.push(buffer)
  }
}
