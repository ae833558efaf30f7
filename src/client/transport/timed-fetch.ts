/** What one HTTP exchange needs: where, which headers, the caller's signal and the time limit. */
export interface TimedRequest {
  url: string
  headers: Headers
  signal: AbortSignal | undefined
  /** Milliseconds for the whole exchange (the answer's headers and its body), or `false` for none. */
  timeout: number | false
}

/** What the fetch of one attempt came to: the response and its body, read. */
export interface TimedAnswer {
  response: Response
  text: string
}

/** Thrown by {@link timedFetch} when its time limit ran out (and not the caller's signal). */
export class ExchangeTimeout extends Error {
  override name = 'ExchangeTimeout'
}

/**
 * GETs `url` with `fetchFn` and reads the body as text, all within `timeout`. `onHeaders` runs once,
 * as soon as the answer's headers are in (with the response) or the request failed (without one):
 * the rate limiter learns from the headers before the body is read.
 *
 * The time limit and the caller's signal hold even when the fetch never hears of them: the fetch and
 * the body are raced against them. Node's fetch loses the signal of a `Request` built from another
 * once the first is garbage-collected (nodejs/undici#4068; a `fetch` option that wraps its arguments
 * in `new Request(input, init)` does that), and a custom fetch may ignore it: a hung request then
 * never ended, and neither did a follow waiting on it.
 *
 * A plain fetch is all the client needs (retries, errors and the limiter are its own), so the SDK
 * carries no HTTP library: about 9 KB less in a browser bundle.
 */
export async function timedFetch(fetchFn: typeof fetch, request: TimedRequest, onHeaders: (response?: Response) => void): Promise<TimedAnswer> {
  const { signal, timeout } = request
  const controller = new AbortController()
  // Settles (rejects) when the exchange is given up on: the race below needs no fetch's cooperation,
  // nor a listener of its own on any signal.
  let stop!: (reason: unknown) => void
  const stopped = new Promise<never>((_, reject) => (stop = reject))
  stopped.catch(() => {})
  const giveUp = (reason: unknown) => {
    controller.abort(reason)
    stop(reason)
  }
  const onAbort = () => giveUp(signal!.reason)
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  const timer = timeout === false ? undefined : setTimeout(() => giveUp(new ExchangeTimeout()), timeout)
  let fetching: Promise<Response> | undefined
  try {
    let response: Response | undefined
    try {
      fetching = fetchFn(request.url, { method: 'GET', headers: request.headers, signal: controller.signal })
      response = await Promise.race([fetching, stopped])
    } finally {
      onHeaders(response)
    }
    return { response, text: await Promise.race([response.text(), stopped]) }
  } catch (error) {
    // Given up on before its headers came: whatever the fetch still brings is let go (an answer
    // that comes late has its body cancelled, so its connection is freed).
    void fetching?.then((late) => late.body?.cancel().catch(() => {}), () => {})
    if (controller.signal.reason instanceof ExchangeTimeout && !signal?.aborted) throw controller.signal.reason
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}
