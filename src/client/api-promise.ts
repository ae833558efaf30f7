import type { WithResponse } from './transport/transport.js'

/**
 * The promise every request method returns: awaited, it gives the data; `.withResponse()` gives the
 * data together with the HTTP response (status, `RateLimit-*` headers). A failure rejects both,
 * with the same error.
 *
 * @example
 * const candles = await client.exchangeOhlcv(params)
 * const { data, response } = await client.exchangeOhlcv(params).withResponse()
 * console.log(response.status, response.headers.get('ratelimit-remaining'), data.length)
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<WithResponse<T>>
  #data: Promise<T> | undefined

  /** @internal Built by the client's methods. */
  constructor(result: Promise<WithResponse<T>>) {
    // The base promise is never used: then/catch/finally read the result (as openai-node's APIPromise).
    super((resolve) => resolve(undefined as T))
    this.#result = result
  }

  // `then` on a subclass would build another APIPromise through this constructor; plain promises it is.
  static override get [Symbol.species]() {
    return Promise
  }

  #parsed(): Promise<T> {
    return (this.#data ??= this.#result.then((r) => r.data))
  }

  /** The data and the response it came in (its body already read). */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result.then((r) => r)
  }

  override then<A = T, B = never>(onfulfilled?: ((value: T) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.#parsed().then(onfulfilled, onrejected)
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parsed().catch(onrejected)
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally)
  }
}
