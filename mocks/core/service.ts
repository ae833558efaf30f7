import type { DateInput } from '../../src/contract/index.js'
import type { Account, ApiKey, Plan } from '../data/accounts.js'
import type { ExplicitDataset } from '../data/explicit-store.js'
import type { ProceduralDataset } from '../data/procedural-store.js'
import type { CandleStore } from '../data/series.js'
import { createClock, type MockClock } from './clock.js'
import { checkPublishDelay, withDate } from './service-time.js'
import type { ServiceContext } from './context.js'
import { dispatch } from './dispatch.js'
import { FaultCapabilities, FaultQueue } from './faults.js'
import { loadFixtures, type Fixtures } from './fixtures.js'
import { RequestJournal, type WaitOptions } from './journal.js'
import type { JournalEntry, JournalFilter } from './journal-entry.js'
import { KeyRing, type KeyInfo } from './key-ring.js'
import { rateWindowOf } from './rate-window.js'
import { SeriesIndex } from './series-index.js'
import { MAX_SESSIONS, splitSessionUrl, tooManySessions } from './session-path.js'
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
  /**
   * The request journal: how many requests it keeps (the oldest are dropped first), or `false` to
   * switch it off. Each session has its own of the same size.
   * @default { size: 1000 }
   */
  journal?: false | { size?: number }
}

/** The reference service: plain functions over plain data, no HTTP and no MSW. */
export interface MockService {
  /** Answers one request; a URL under `/_sessions/NAME/` is answered by that session. */
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
  /** Injected faults: status answers, broken, cut, slow or hanging connections, latency. */
  readonly faults: FaultQueue
  /** Restores fixtures (keys, clock), usage, rate windows; drops pending faults and the journal (and, on the root service, every session). */
  reset(): Promise<void>
  /**
   * The requests the service received, oldest first, filtered by `path`, `status`, `account`,
   * `method` or `since` (a `seq` number or a wall-clock instant).
   *
   * @example
   * service.requests({ path: '/v1/exchange_ohlcv', status: 200 }).length // 3
   */
  requests(filter?: JournalFilter): JournalEntry[]
  /** Empties the journal. */
  clearRequests(): void
  /**
   * Resolves with the matching requests once `count` have arrived (those already in the journal
   * count); rejects with a `RequestWaitTimeoutError` carrying what did arrive after `timeoutMs`.
   *
   * @example
   * await service.waitForRequests({ path: '/v1/exchange_ohlcv' }, { count: 3, timeoutMs: 2000 })
   */
  waitForRequests(filter?: JournalFilter, options?: WaitOptions): Promise<JournalEntry[]>
  /**
   * The session `name`, created on first use: the same data, with its own usage, rate windows,
   * journal, faults, keys and clock. Over HTTP it is the base URL `/_sessions/NAME`.
   *
   * @example
   * const a = service.session('worker-1')
   * await service.handle({ method: 'GET', url: '/_sessions/worker-1/v1/assets' })
   * a.requests().length // 1
   */
  session(name: string): MockService
  /** The names of the sessions created so far. */
  sessions(): string[]
}

/** What a service and its sessions share: the checked fixtures and their index, the options, the adapters' limits. */
interface Shared {
  fixtures: Fixtures
  index: SeriesIndex
  options: MockServiceOptions
  capabilities: FaultCapabilities
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
  const shared: Shared = { fixtures, index: new SeriesIndex(fixtures.store), options, capabilities: new FaultCapabilities() }
  const sessions = new Map<string, MockService>()
  const session = (name: string): MockService => {
    const found = sessions.get(name)
    if (found) return found
    const split = splitSessionUrl(`/_sessions/${name}/`)
    if (!split || !('name' in split) || split.name !== name) throw new TypeError(`Invalid session name ${JSON.stringify(name)}: use 1 to 64 letters, digits, '.', '_', '~' or '-'`)
    if (sessions.size >= MAX_SESSIONS) throw new RangeError(`Too many sessions (${MAX_SESSIONS}); reset() drops them all`)
    const created = serviceOf(shared, undefined)
    sessions.set(name, created)
    return created
  }
  return serviceOf(shared, {
    session,
    names: () => [...sessions.keys()],
    async handle(request) {
      const split = splitSessionUrl(request.url)
      if (!split) return undefined
      if (!('name' in split)) return split
      if (!sessions.has(split.name) && sessions.size >= MAX_SESSIONS) return tooManySessions()
      return session(split.name).handle({ ...request, url: split.rest })
    },
    reset: () => sessions.clear(),
  })
}

/** How the root service reaches its sessions (undefined for a session, which has none). */
interface SessionHooks {
  session(name: string): MockService
  names(): string[]
  /** The answer of a session URL; undefined for a URL outside every session. */
  handle(request: MockRequest): Promise<MockResponse | undefined> | undefined
  reset(): void
}

function serviceOf(shared: Shared, hooks: SessionHooks | undefined): MockService {
  const { fixtures, options } = shared
  const rateWindow = rateWindowOf(options.rateLimit)
  const clock = createClock({ now: options.now, rate: options.clockRate })
  const publishDelayMs = checkPublishDelay(options.publishDelayMs)
  const keys = new KeyRing()
  const faults = new FaultQueue(shared.capabilities)
  const journal = new RequestJournal(options.journal === false ? 0 : options.journal?.size)
  const { accounts } = fixtures
  const ctx: ServiceContext = { index: shared.index, plans: fixtures.plans, accounts, keys, usage: new Map(), rateWindow, clock, publishDelayMs }
  const dispatchOptions = { faults, journal, validateResponses: options.validateResponses ?? false }
  let ready = keys.load(fixtures.keys)
  // Awaited by every request; this only keeps a failure from going unhandled before the first one.
  ready.catch(() => {})

  return {
    async handle(request) {
      await ready
      if (hooks && request.url.startsWith('/_sessions/')) {
        // A session's own service stamps its answers with the session's clock; a refusal of the
        // session URL itself gets the root's.
        const answered = await hooks.handle(request)
        if (answered) return answered.headers.date === undefined ? withDate(answered, clock) : answered
      }
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
      journal.clear()
      clock.reset()
      hooks?.reset()
      ready = keys.load(fixtures.keys)
      await ready
    },
    requests: (filter) => journal.list(filter),
    clearRequests: () => journal.clear(),
    waitForRequests: (filter, waitOptions) => journal.waitFor(filter, waitOptions),
    session(name) {
      if (!hooks) throw new TypeError('Sessions do not nest: call session() on the root service')
      return hooks.session(name)
    },
    sessions: () => hooks?.names() ?? [],
  }
}
