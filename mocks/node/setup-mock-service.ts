import { setupServer, type SetupServer } from 'msw/node'
import { DEFAULT_BASE_URL } from '../../src/contract/index.js'
import type { DataControl } from '../data/arranged-data.js'
import { journalOf, type JournalView } from '../core/service/journal-view.js'
import { createMockService, type MockService, type MockServiceOptions } from '../core/service/service.js'
import { createHandlers, handlersContext } from '../msw/handlers.js'
import { directFetch, handlersFetch } from '../msw/handlers-fetch.js'

/** Options of {@link setupMockService}. */
export interface SetupMockServiceOptions extends MockServiceOptions {
  /** @default DEFAULT_BASE_URL */
  baseUrl?: string
  /** Delays every response. @default 0 */
  latency?: number
}

/** A reference service behind MSW in this process, for vitest or jest. */
export interface MockServiceHandle extends JournalView {
  /** The service: usage, clock, keys, faults. */
  readonly service: MockService
  /**
   * The service's data, changed at run time: `service.data` (see {@link MockService.data}).
   * `reset()` restores the starting data.
   * @example
   * mock.data.removeCandles({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', from: '2025-01-02', to: '2025-01-03' })
   */
  readonly data: DataControl
  /** The underlying MSW server, e.g. for `server.use(...)` overrides. */
  readonly server: SetupServer
  readonly baseUrl: string
  /**
   * A `fetch` answered by the same handlers (`server.use` overrides included) without going through
   * MSW's interception of the network, which writes and parses every request and answer as HTTP:
   * more pages per CPU second than the global `fetch` through MSW (up to several times on small
   * pages), level with or faster than a node:http server in the same process (bench section 5).
   * Works without `listen()`.
   * @example
   * const client = createClient({ apiKey: 'demo-pro-key', fetch: mock.fetch })
   */
  readonly fetch: typeof fetch
  /** Starts intercepting; unhandled requests fail the test by default. */
  listen(options?: Parameters<SetupServer['listen']>[0]): void
  /** Drops `server.use` overrides and restores the service (data, plans, keys, usage, rate windows, clock). */
  reset(): Promise<void>
  /** Stops intercepting. */
  close(): void
}

/**
 * Sets up the reference service behind MSW in Node.
 *
 * @example
 * const mock = setupMockService({ now: '2025-01-01T00:00:00Z' })
 * beforeAll(() => mock.listen())
 * afterEach(() => mock.reset())
 * afterAll(() => mock.close())
 */
export function setupMockService(options: SetupMockServiceOptions = {}): MockServiceHandle {
  const { baseUrl = DEFAULT_BASE_URL, latency, ...serviceOptions } = options
  const service = createMockService(serviceOptions)
  const handlers = createHandlers(service, { baseUrl, latency })
  const server = setupServer(...handlers)
  const { pattern, context } = handlersContext(service, { baseUrl, latency })
  const viaHandlers = handlersFetch(() => server.listHandlers())
  const direct = directFetch(pattern, context)
  return {
    ...journalOf(service),
    service,
    data: service.data,
    server,
    baseUrl,
    // With a server.use override installed, requests go through MSW's handler matching.
    fetch: (input, init) => (server.listHandlers().length > handlers.length ? viaHandlers : direct)(input, init),
    listen: (listenOptions) => server.listen({ onUnhandledFrame: 'error', ...listenOptions }),
    async reset() {
      server.resetHandlers()
      await service.reset()
    },
    close: () => server.close(),
  }
}
