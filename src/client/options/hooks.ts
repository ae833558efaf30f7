import type { EndpointName } from '../../contract/index.js'

/** What every hook event says about its request. Headers, and so the API key, are never in it. */
export interface RequestEvent {
  endpoint: EndpointName
  method: 'GET'
  /** Full URL with query. */
  url: string
  /** 0 for the first attempt, 1 for the first retry, ... */
  attempt: number
}

/** Hooks for logging and observing requests. A hook that throws fails the request with its error. */
export interface ClientHooks {
  /** Before each attempt is sent (after the rate limiter let it go). */
  onRequest?(event: RequestEvent): void
  /** After each attempt that got a response, successful or not. */
  onResponse?(event: RequestEvent & { status: number; durationMs: number }): void
  /** Before waiting to retry a failed attempt. */
  onRetry?(event: RequestEvent & { error: Error; delayMs: number }): void
  /** When a request fails for good. */
  onError?(event: RequestEvent & { error: Error }): void
}
