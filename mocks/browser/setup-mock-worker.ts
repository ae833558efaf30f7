import { setupWorker, type SetupWorker } from 'msw/browser'
import { DEFAULT_BASE_URL } from '../../src/contract/index.js'
import { journalOf, type JournalView } from '../core/service/journal-view.js'
import type { DataControl } from '../data/arranged-data.js'
import { createMockService, type MockService, type MockServiceOptions } from '../core/service/service.js'
import { createHandlers } from '../msw/handlers.js'
import { BROWSER_FAULT_KINDS } from '../msw/fault-body.js'

/** Options of {@link setupMockWorker}: those of `setupMockService`. */
export interface SetupMockWorkerOptions extends MockServiceOptions {
  /** The base URL to intercept; a path prefix is allowed. @default DEFAULT_BASE_URL */
  baseUrl?: string
  /** Delays every response by this many milliseconds. @default 0 */
  latency?: number
}

/** What `worker.start()` takes: msw's start options. */
export type MockWorkerStartOptions = NonNullable<Parameters<SetupWorker['start']>[0]>

/** The reference service behind MSW's Service Worker, in a browser page. */
export interface MockWorkerHandle extends JournalView {
  /** The service: usage, clock, keys, faults. */
  readonly service: MockService
  /**
   * The service's data, changed at run time: `service.data` (see {@link MockService.data}).
   * @example
   * mock.data.removeCandles({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', from: '2025-01-02', to: '2025-01-03' })
   */
  readonly data: DataControl
  /** The underlying MSW worker, e.g. for `worker.use(...)` overrides. */
  readonly worker: SetupWorker
  readonly baseUrl: string
  /**
   * Registers `/mockServiceWorker.js` (copy it into your public folder with `npx msw init public/`)
   * and starts intercepting. Requests outside `baseUrl` (the page's own files) go to the network.
   * @default { onUnhandledFrame: 'bypass', quiet: true }
   */
  start(options?: MockWorkerStartOptions): Promise<ServiceWorkerRegistration | undefined>
  /** Stops intercepting for this page. */
  stop(): Promise<void>
  /** Drops `worker.use` overrides and restores the service (data, plans, keys, usage, rate windows, clock). */
  reset(): Promise<void>
}

/**
 * Sets up the reference service behind MSW's Service Worker, for a demo page, a prototype or
 * browser tests: the same options as `setupMockService` in Node, and the same answers, CORS
 * headers included.
 *
 * @example
 * import { setupMockWorker } from 'market-candles/mocks/browser'
 * const mock = setupMockWorker({ now: '2026-06-01T00:00:00Z' })
 * await mock.start() // before the first request
 * const client = createClient({ apiKey: 'demo-pro-key' }) // the default base URL is intercepted
 */
export function setupMockWorker(options: SetupMockWorkerOptions = {}): MockWorkerHandle {
  const { baseUrl = DEFAULT_BASE_URL, latency, ...serviceOptions } = options
  const service = createMockService(serviceOptions)
  service.faults.capabilities.restrict('MSW browser worker', BROWSER_FAULT_KINDS, "a browser's Service Worker answers whole responses only")
  const worker = setupWorker(...createHandlers(service, { baseUrl, latency }))
  return {
    ...journalOf(service),
    service,
    data: service.data,
    worker,
    baseUrl,
    start: (startOptions) => worker.start({ onUnhandledFrame: 'bypass', quiet: true, ...startOptions }),
    stop: async () => {
      await worker.stop()
    },
    async reset() {
      worker.resetHandlers()
      await service.reset()
    },
  }
}
