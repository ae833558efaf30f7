import { getResponse } from 'msw'
import { afterAll } from 'vitest'
import { createMockService, type MockService, type MockServiceOptions } from '../../mocks/index.js'
import { createHandlers } from '../../mocks/msw/index.js'
import { startMockServer } from '../../mocks/server/index.js'
import { createClient, type ClientOptions, type MarketCandles } from '../../src/index.js'

/** A request the client sent, as the wire saw it. */
export interface SentRequest {
  url: URL
  headers: Headers
}

/** A reference service and a way for the SDK to reach it. */
export interface SdkTarget {
  readonly service: MockService
  /** Every request the client sent, headers included (only tests look at them). */
  readonly sent: SentRequest[]
  client(options?: ClientOptions): MarketCandles
  close(): Promise<void>
}

function recording(sent: SentRequest[], inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    sent.push({ url: new URL(request.url), headers: new Headers(request.headers) })
    return inner(request)
  }
}

const BASE = 'https://candles.msw.test/api'

/** The SDK through MSW handlers, via the client's `fetch` option: nothing global is patched. */
export async function sdkViaMsw(options: MockServiceOptions & { latency?: number } = {}): Promise<SdkTarget> {
  const { latency, ...serviceOptions } = options
  const service = createMockService({ validateResponses: true, ...serviceOptions })
  const handlers = createHandlers(service, { baseUrl: BASE, latency })
  const sent: SentRequest[] = []
  const viaHandlers: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    if (request.signal.aborted) throw request.signal.reason
    const res = await getResponse(handlers, request)
    if (!res) throw new Error(`MSW handlers did not answer ${request.url}`)
    if (res.type === 'error') throw new TypeError('Failed to fetch')
    return res
  }
  return {
    service,
    sent,
    client: (clientOptions = {}) => createClient({ baseUrl: BASE, fetch: recording(sent, viaHandlers), ...clientOptions }),
    close: async () => {},
  }
}

/** The SDK against the standalone HTTP server on a random port. */
export async function sdkViaHttp(options: MockServiceOptions & { latency?: number } = {}): Promise<SdkTarget> {
  const server = await startMockServer({ port: 0, validateResponses: true, ...options })
  const sent: SentRequest[] = []
  return {
    service: server.service,
    sent,
    client: (clientOptions = {}) => createClient({ baseUrl: server.url, fetch: recording(sent, fetch), ...clientOptions }),
    close: () => server.close(),
  }
}

/** Both targets, for `describe.each`. */
export const SDK_TARGETS = [
  ['msw', sdkViaMsw],
  ['http', sdkViaHttp],
] as const

/** Collects an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/** Catches what a promise rejects with. */
export async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

/**
 * For a file whose tests run side by side, each with a service of its own: wraps a target being
 * opened so that every one is closed when the file ends (`afterAll`).
 */
export function closedWhenFileEnds(): (connecting: Promise<SdkTarget>) => Promise<SdkTarget> {
  const opened = new Set<SdkTarget>()
  afterAll(() => Promise.all([...opened].map((t) => t.close())))
  return async (connecting) => {
    const target = await connecting
    opened.add(target)
    return target
  }
}
