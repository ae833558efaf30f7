/** Request headers as a `Headers` object or a plain record (node:http's `req.headers` fits). */
export type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>

/** What the core needs of a request. */
export interface MockRequest {
  method: string
  /** Path and query relative to the service root, e.g. `/v1/assets` or `/v1/exchange_pairs?interval=1h`. */
  url: string
  headers?: HeaderSource
}

/**
 * How an adapter must deliver an answer an injected fault broke: no answer and a closed connection
 * (`network_error`), a TCP reset before any byte (`reset`), no answer until the client gives up
 * (`hang`), the headers and `afterBytes` bytes of the body then a cut connection (`truncate`), or
 * the whole body slowly (`slow_body`: `bytesPerSecond`, or spread over `durationMs`).
 */
export type Delivery =
  | { kind: 'network_error' | 'reset' | 'hang' }
  | { kind: 'truncate'; afterBytes: number }
  | { kind: 'slow_body'; bytesPerSecond?: number; durationMs?: number }

/** What the core answers; adapters turn it into an HTTP response. */
export interface MockResponse {
  status: number
  headers: Record<string, string>
  /** JSON-serializable body. */
  body: unknown
  /** An injected fault that the adapter must turn into a broken connection instead of a response. */
  networkError?: true
  /** An injected fault that breaks or slows the delivery of this answer. */
  delivery?: Delivery
}

/** What a route learns of a request for the journal. */
export interface RequestNote {
  /** The account the request's key acts as, once authenticated. */
  account?: string
}
