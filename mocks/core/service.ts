import type { DateInput } from '../../src/contract/index.js'
import type { Account, ApiKey, Plan } from '../data/accounts.js'
import type { ExplicitDataset } from '../data/explicit-store.js'
import type { ProceduralDataset } from '../data/procedural-store.js'
import type { CandleStore } from '../data/series.js'
import { createClock, type MockClock } from './clock.js'
import { checkPublishDelay, withDate } from './service-time.js'
import type { ServiceContext } from './context.js'
import { dispatch } from './dispatch.js'
import { FaultQueue } from './faults.js'
import { loadFixtures } from './fixtures.js'
import { KeyRing, type KeyInfo } from './key-ring.js'
import { rateWindowOf } from './rate-window.js'
import { SeriesIndex } from './series-index.js'
import type { MockRequest, MockResponse } from './types.js'

/** Options of {@link createMockService}. */
export interface MockServiceOptions {
  /**
   * The candles: rows (`{ exchanges, assets, candles }`), rules (`{ exchanges, assets, listings }`)
   * or any {@link CandleStore}.
   * @default the default procedural dataset
   */
  data?: ExplicitDataset | ProceduralDataset | CandleStore
  /** @default the demo plans `free`, `pro`, `enterprise` */
  plans?: Plan[]
  /** @default one demo account per plan */
  accounts?: Account[]
  /** @default the demo keys (see README) */
  keys?: ApiKey[]
  /**
   * Where the service's clock starts: the newest candle served is the latest with `close_ts <= now`.
   * Without `clockRate` the clock stays there. @default the system clock
   */
  now?: DateInput
  /**
   * Runs the clock from `now` at this many times wall speed (60: a new `1m` candle every second;
   * 0: fixed). The `Date` header of every answer reads this clock. @default 0 with `now`, else 1 (the system clock)
   */
  clockRate?: number
  /**
   * A candle becomes visible this many milliseconds after its close, as a real feed's ingestion
   * delay makes it (on the service's clock). @default 0
   */
  publishDelayMs?: number
  /**
   * The per-account rate limit (a sliding one-second window), or `false` to switch it off (for throughput benchmarks).
   * `clock` measures the sliding window. @default { perSecond: 10, clock: performance.now }
   */
  rateLimit?: false | { perSecond?: number; clock?: () => number }
  /** Check every response against the shared schemas and throw on a mismatch. @default false */
  validateResponses?: boolean
}

/** The reference service: plain functions over plain data, no HTTP and no MSW. */
export interface MockService {
  /** Answers one request. */
  handle(request: MockRequest): Promise<MockResponse>
  /** The service's "now". */
  readonly clock: MockClock
  /** Counted calls per account id (only 200s of candle endpoints count). */
  usage(): Record<string, number>
  /** The accounts' keys. */
  readonly keys: {
    add(key: string, account: string): Promise<void>
    revoke(key: string): Promise<boolean>
    list(): KeyInfo[]
  }
  /** Injected faults (5xx answers, broken connections) for retry tests. */
  readonly faults: FaultQueue
  /** Restores fixtures (keys, clock), usage, rate windows; drops pending faults. */
  reset(): Promise<void>
}

/**
 * Creates a reference service over in-memory fixtures. Every record is validated here: a bad one
 * throws a `FixtureError` naming it.
 *
 * @example
 * const service = createMockService({ now: '2025-01-01T00:00:00Z' })
 * const res = await service.handle({ method: 'GET', url: '/v1/assets' })
 * res.status // 200
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const fixtures = loadFixtures(options)
  const rateWindow = rateWindowOf(options.rateLimit)
  const clock = createClock({ now: options.now, rate: options.clockRate })
  const publishDelayMs = checkPublishDelay(options.publishDelayMs)
  const keys = new KeyRing()
  const faults = new FaultQueue()
  const { accounts } = fixtures
  const ctx: ServiceContext = { index: new SeriesIndex(fixtures.store), plans: fixtures.plans, accounts, keys, usage: new Map(), rateWindow, clock, publishDelayMs }
  const dispatchOptions = { faults, validateResponses: options.validateResponses ?? false }
  let ready = keys.load(fixtures.keys)
  // Awaited by every request; this only keeps a failure from going unhandled before the first one.
  ready.catch(() => {})

  return {
    async handle(request) {
      await ready
      return withDate(await dispatch(ctx, request, dispatchOptions), clock)
    },
    clock,
    usage: () => Object.fromEntries([...accounts.keys()].map((id) => [id, ctx.usage.get(id) ?? 0])),
    keys: {
      async add(key, account) {
        await ready
        if (!accounts.has(account)) throw new TypeError(`Unknown account '${account}'`)
        await keys.add(key, account)
      },
      async revoke(key) {
        await ready
        return keys.revoke(key)
      },
      list: () => keys.list(),
    },
    faults,
    async reset() {
      ctx.usage.clear()
      ctx.rateWindow?.clear()
      faults.clear()
      clock.reset()
      ready = keys.load(fixtures.keys)
      await ready
    },
  }
}
