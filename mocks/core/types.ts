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

/** A time as a `Date`, epoch milliseconds or an ISO 8601 string. */
export type TimeInput = Date | number | string

/** Reads one header case-insensitively; a repeated header reads as its values joined by `, `. */
export function readHeader(headers: HeaderSource | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const lower = name.toLowerCase()
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() === lower && value !== undefined) return typeof value === 'string' ? value : value.join(', ')
  }
  return undefined
}
