/** Request headers as a `Headers` object or a plain record (node:http's `req.headers` fits). */
export type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>

/** What the core needs of a request. */
export interface MockRequest {
  method: string
  /** Path and query relative to the service root, e.g. `/v1/assets` or `/v1/exchange_pairs?interval=1h`. */
  url: string
  headers?: HeaderSource
}

/** What the core answers; adapters turn it into an HTTP response. */
export interface MockResponse {
  status: number
  headers: Record<string, string>
  /** JSON-serializable body. */
  body: unknown
  /** An injected fault that the adapter must turn into a broken connection instead of a response. */
  networkError?: true
}
