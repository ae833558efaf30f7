import type { DateInput } from '../../../src/contract/index.js'
import { planSchema, type Account, type ApiKey, type Plan } from '../../data/accounts.js'
import { OverlayStore } from '../../data/overlay/overlay-store.js'
import { issueOf } from '../arranged/check-candles.js'
import type { DataControl, DataIssue, KeyPut, PlanControl } from '../../data/arranged-data.js'
import { DataError } from '../../data/data-error.js'
import { createDataControl } from '../arranged/service-data.js'
import type { ExplicitDataset } from '../../data/explicit-store.js'
import type { ProceduralDataset } from '../../data/procedural/procedural-store.js'
import type { CandleStore } from '../../data/series.js'
import { createClock, type MockClock } from '../state/clock.js'
import { checkPublishDelay, withDate } from '../state/service-time.js'
import type { ServiceContext } from '../state/context.js'
import { dispatch } from '../request/dispatch.js'
import { FaultCapabilities, FaultQueue } from '../faults/fault-queue.js'
import { loadFixtures, type Fixtures } from '../state/fixtures.js'
import { RequestJournal, type WaitOptions } from '../journal/journal.js'
import type { JournalEntry, JournalFilter } from '../journal/journal-entry.js'
import { KeyRing, hintOf, type KeyInfo } from '../state/key-ring.js'
import { rateWindowOf } from '../state/rate-window.js'
import { SeriesIndex } from '../state/series-index.js'
import { MAX_SESSIONS, splitSessionUrl, tooManySessions } from './session-path.js'
import type { MockRequest, MockResponse } from '../message/types.js'
import { resolveVariant, type ResolvedVariant, type ServiceVariant, type ServiceVariantInput } from '../variant/index.js'

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
  /**
   * How the service fills the gaps of interface.md: a preset's name of `SERVICE_VARIANTS`
   * (`'python-stack'`, `'timestamps-offset'`, ...) or the fields of a {@link ServiceVariant}. Each
   * session starts with it. Change it at run time with `setVariant` (`PUT /_mock/variant`).
   * @default the reference's own choices (D1-D12)
   * @example
   * createMockService({ variant: 'python-stack' })
   * createMockService({ variant: { timestamps: '+00:00', errorBodies: 'pydantic-v1' } })
   */
  variant?: ServiceVariantInput
}

/** Options of {@link MockService.session}. */
export interface SessionOptions {
  /**
   * The session's variant (see {@link MockServiceOptions.variant}); given for a session that exists,
   * it replaces the session's current one. @default the service's `variant` option
   */
  variant?: ServiceVariantInput
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
    /**
     * Adds a key, creating its account on `plan` when the account is new; `plan` given for an
     * existing account moves the account to it; a key already present is re-pointed to `account`
     * (and is live again if it was revoked). Bad input throws a `DataError` (quoting the key's
     * hint only) and changes nothing.
     *
     * @example
     * await service.keys.put({ key: 'test-key-1', account: 'acct_test', plan: 'free' })
     */
    put(key: KeyPut): Promise<void>
    revoke(key: string): Promise<boolean>
    list(): KeyInfo[]
  }
  /**
   * The plans of this service (a session has its own, starting from the fixtures'): `put` adds a
   * plan or replaces the one with its id (checked with `planSchema`; bad input throws a `DataError`).
   *
   * @example
   * service.plans.put({ id: 'tiny', endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } })
   * await service.keys.put({ key: 'tiny-key-1', account: 'acct_tiny', plan: 'tiny' })
   */
  readonly plans: PlanControl
  /**
   * The data this service serves, changed at run time: candles put or removed, exchanges, assets,
   * generated series. Every change is checked whole first (a bad row throws a `DataError` naming
   * every bad row; nothing changes) and seen by this service only: a session's changes stay in
   * the session, and a new session starts from the starting data.
   *
   * @example
   * service.data.putCandles([{ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts: '2025-01-01T10:00:00Z',
   *   open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200,
   *   source_provider: 'test', source_channel: 'test', flag: null }])
   * service.data.removeCandles({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', from: '2025-01-02', to: '2025-01-03' })
   */
  readonly data: DataControl
  /** Injected faults: status answers, broken, cut, slow or hanging connections, latency. */
  readonly faults: FaultQueue
  /**
   * Back to the starting world: data, keys, accounts and plans as the fixtures give them, the clock,
   * usage and rate windows restored; pending faults and the journal dropped (and, on the root
   * service, every session).
   *
   * @example
   * afterEach(() => service.reset()) // each test starts from the same world
   */
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
   * The session `name`, created on first use: the same starting data, with its own usage, rate
   * windows, journal, faults, keys, plans, arranged data (`session.data`) and clock. Over HTTP it is
   * the base URL `/_sessions/NAME`.
   *
   * @example
   * const a = service.session('worker-1')
   * await service.handle({ method: 'GET', url: '/_sessions/worker-1/v1/assets' })
   * a.requests().length // 1
   */
  session(name: string, options?: SessionOptions): MockService
  /** The names of the sessions created so far. */
  sessions(): string[]
  /**
   * How this service (or session) fills the gaps of interface.md now: every field of a
   * {@link ServiceVariant}, the reference's choice where none was given.
   */
  readonly variant: ResolvedVariant
  /**
   * Answers from now on as `variant` says (a preset's name or the fields; a field left out is the
   * reference's). Bad input throws a TypeError and changes nothing; `reset()` restores the starting one.
   *
   * @example
   * service.setVariant('python-stack')
   * service.setVariant({ missingKey: 403 })
   */
  setVariant(variant: ServiceVariantInput): void
}

/** What a service and its sessions share: the checked fixtures and their index, the options, the adapters' limits. */
interface Shared {
  fixtures: Fixtures
  index: SeriesIndex
  options: MockServiceOptions
  capabilities: FaultCapabilities
  /** The `variant` option, checked once: where every service and session starts. */
  variant: ResolvedVariant
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
  const variant = resolveVariant(options.variant)
  const shared: Shared = { fixtures, index: new SeriesIndex(fixtures.store), options, capabilities: new FaultCapabilities(), variant }
  const sessions = new Map<string, MockService>()
  const session = (name: string, sessionOptions?: SessionOptions): MockService => {
    // Checked before a session is created: bad input creates nothing.
    const chosen = sessionOptions?.variant === undefined ? undefined : resolveVariant(sessionOptions.variant)
    const found = sessions.get(name)
    if (found) {
      if (chosen) found.setVariant(chosen)
      return found
    }
    const split = splitSessionUrl(`/_sessions/${name}/`)
    if (!split || !('name' in split) || split.name !== name) throw new TypeError(`Invalid session name ${JSON.stringify(name)}: use 1 to 64 letters, digits, '.', '_', '~' or '-'`)
    if (sessions.size >= MAX_SESSIONS) throw new RangeError(`Too many sessions (${MAX_SESSIONS}); reset() drops them all`)
    const created = serviceOf(shared, undefined)
    if (chosen) created.setVariant(chosen)
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
  session(name: string, options?: SessionOptions): MockService
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
  // Plans and accounts per service, from the fixtures; the data is an overlay over the shared store.
  const plans = new Map(fixtures.plans)
  const accounts = new Map(fixtures.accounts)
  const overlay = new OverlayStore(fixtures.store)
  let index = shared.index
  let indexVersion = overlay.version
  const indexNow = (): SeriesIndex => {
    if (indexVersion !== overlay.version) {
      index = overlay.pristine ? shared.index : new SeriesIndex(overlay.store, (method, interval) => overlay.aggregatedEdits(method, interval))
      indexVersion = overlay.version
    }
    return index
  }
  const ctx: ServiceContext = {
    get index() {
      return indexNow()
    },
    plans,
    accounts,
    keys,
    usage: new Map(),
    rateWindow,
    clock,
    publishDelayMs,
  }
  const data = createDataControl({ overlay, index: indexNow, visibleNow: () => clock.now() - publishDelayMs })
  let variant = shared.variant
  const dispatchOptions = {
    faults,
    journal,
    validateResponses: options.validateResponses ?? false,
    get variant() {
      return variant
    },
  }
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
        if (answered) return withDate(answered, clock.now())
      }
      // An endpoint's answer keeps the Date of the reading that decided it; 404, 405 and faults read the clock now.
      return withDate(await dispatch(ctx, request, dispatchOptions), clock.now())
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
      async put(put) {
        await ready
        const { key, account, plan } = checkKeyPut(put, accounts, plans)
        // The account first (synchronously), so a request racing the digest never finds a key without one.
        const existing = accounts.get(account)
        if (!existing || (plan !== undefined && existing.plan !== plan)) accounts.set(account, { id: account, plan: plan ?? existing!.plan })
        await keys.put(key, account)
      },
      list: () => keys.list(),
    },
    plans: {
      put(plan) {
        const parsed = planSchema.safeParse(plan)
        if (!parsed.success) throw new DataError('plans.put', parsed.error.issues.map((i) => issueOf(0, i)), 'plan')
        plans.set(parsed.data.id, parsed.data)
      },
      list: () => [...plans.values()].map((p) => structuredClone(p)),
    },
    data,
    faults,
    async reset() {
      ctx.usage.clear()
      ctx.rateWindow?.clear()
      faults.clear()
      journal.clear()
      clock.reset()
      variant = shared.variant
      hooks?.reset()
      overlay.reset()
      restore(plans, fixtures.plans)
      restore(accounts, fixtures.accounts)
      ready = keys.load(fixtures.keys)
      await ready
    },
    requests: (filter) => journal.list(filter),
    clearRequests: () => journal.clear(),
    waitForRequests: (filter, waitOptions) => journal.waitFor(filter, waitOptions),
    session(name, sessionOptions) {
      if (!hooks) throw new TypeError('Sessions do not nest: call session() on the root service')
      return hooks.session(name, sessionOptions)
    },
    sessions: () => hooks?.names() ?? [],
    get variant() {
      return variant
    },
    setVariant(next) {
      variant = resolveVariant(next)
    },
  }
}

function restore<T>(map: Map<string, T>, from: ReadonlyMap<string, T>): void {
  map.clear()
  for (const [k, v] of from) map.set(k, v)
}

/** Checks a key put whole; a message never quotes the key, only its hint. */
function checkKeyPut(put: unknown, accounts: ReadonlyMap<string, Account>, plans: ReadonlyMap<string, Plan>): Required<Pick<KeyPut, 'key' | 'account'>> & { plan?: string } {
  const issues: DataIssue[] = []
  const issue = (field: string | undefined, message: string) => issues.push({ index: 0, ...(field === undefined ? {} : { field }), message })
  if (typeof put !== 'object' || put === null || Array.isArray(put)) {
    issue(undefined, `expected { key, account, plan? }, got ${put === null ? 'null' : Array.isArray(put) ? 'array' : typeof put}`)
    throw new DataError('keys.put', issues, 'key')
  }
  const { key, account, plan } = put as Record<string, unknown>
  if (typeof key !== 'string' || key === '') issue('key', 'expected a non-empty string')
  else if (key.trim() !== key) issue('key', `the key ${hintOf(key)} has white space at an end: the service trims the header, so it could never be sent`)
  if (typeof account !== 'string' || account === '') issue('account', 'expected a non-empty string')
  if (plan !== undefined && (typeof plan !== 'string' || !plans.has(plan))) issue('plan', `unknown plan ${JSON.stringify(plan)} (known: ${[...plans.keys()].join(', ')})`)
  if (plan === undefined && typeof account === 'string' && account !== '' && !accounts.has(account)) issue('plan', `account '${account}' is new: give its plan`)
  if (issues.length > 0) throw new DataError('keys.put', issues, 'key')
  return { key: key as string, account: account as string, ...(plan === undefined ? {} : { plan: plan as string }) }
}
