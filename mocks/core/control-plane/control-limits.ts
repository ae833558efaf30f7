/**
 * The largest body a control request may carry, in bytes, but for `POST /_mock/data/candles`
 * ({@link MAX_DATA_BODY}). A bigger one is a 413.
 *
 * @example
 * JSON.stringify(fault).length <= MAX_CONTROL_BODY // true for any sensible fault
 * @default 65536 (64 KiB)
 */
export const MAX_CONTROL_BODY = 64 * 1024

/**
 * The largest body of `POST /_mock/data/candles`, in bytes: a batch of 100,000 candles is about
 * 25 MB of JSON. Past it the server answers 413 and stops buffering; send bigger sets in batches.
 *
 * @example
 * const body = JSON.stringify(candles)
 * if (Buffer.byteLength(body) > MAX_DATA_BODY) throw new Error('split the batch')
 * @default 67108864 (64 MiB)
 */
export const MAX_DATA_BODY = 64 * 1024 * 1024

const SMALL_BODIES = new Set(['POST /_mock/faults', 'POST /_mock/clock', 'POST /_mock/data/generate', 'PUT /_mock/variant'])
const NAMED_BODIES = ['/_mock/data/exchanges/', '/_mock/data/assets/', '/_mock/plans/', '/_mock/keys/']

/**
 * The most bytes the body of a request to `path` with `method` may hold, or undefined when the
 * control plane reads no body there: {@link MAX_DATA_BODY} for `POST /_mock/data/candles`,
 * {@link MAX_CONTROL_BODY} for the other routes that take one.
 */
export function bodyLimitOf(method: string, path: string): number | undefined {
  if (method === 'POST' && path === '/_mock/data/candles') return MAX_DATA_BODY
  if (SMALL_BODIES.has(`${method} ${path}`)) return MAX_CONTROL_BODY
  if (method === 'PUT' && NAMED_BODIES.some((prefix) => path.startsWith(prefix))) return MAX_CONTROL_BODY
  return undefined
}
