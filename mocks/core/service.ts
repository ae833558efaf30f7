import type * as z from 'zod/mini'
import { ENDPOINTS, type EndpointName } from '../../src/endpoints.js'
import {
  errorBodySchema,
  rawQueryOf,
  responseSchemas,
  compiled,
  validationErrorBodySchema,
  describeIssue,
  type RawQuery,
} from '../../src/schemas/index.js'
import { accountSchema, apiKeySchema, demoAccounts, demoKeys, demoPlans, planSchema, type Account, type ApiKey, type Plan } from '../data/accounts.js'
import { defaultDataset } from '../data/default-dataset.js'
import { explicitStore, type ExplicitDataset } from '../data/explicit-store.js'
import { FixtureError, checkRecords } from '../data/fixture-error.js'
import { proceduralStore, type ProceduralDataset } from '../data/procedural-store.js'
import type { CandleStore } from '../data/series.js'
import * as catalog from './catalog.js'
import * as candles from './candles.js'
import { createClock, type MockClock } from './clock.js'
import type { ServiceContext } from './context.js'
import { FaultQueue } from './faults.js'
import { OPENAPI_PATH, openApiRoute } from './openapi-route.js'
import { KeyRing, hintOf, type KeyInfo } from './key-ring.js'
import { RateLimiter } from './rate-limiter.js'
import { fail } from './respond.js'
import { SeriesIndex } from './series-index.js'
import type { HeaderSource, MockRequest, MockResponse, TimeInput } from './types.js'

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
  /** Fixes "now" (D5). @default the system clock */
  now?: TimeInput
  /**
   * Decision D7's limit, or `false` to switch it off (for throughput benchmarks).
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

type Route = (ctx: ServiceContext, raw: RawQuery, headers: HeaderSource | undefined) => MockResponse | Promise<MockResponse>

const ROUTES: Record<EndpointName, Route> = {
  exchanges: (ctx) => catalog.exchanges(ctx),
  assets: (ctx) => catalog.assets(ctx),
  exchange_pairs: catalog.exchangePairs,
  aggregated_pairs: catalog.aggregatedPairs,
  exchange_ohlcv: candles.exchangeOhlcv,
  aggregated_ohlcv: candles.aggregatedOhlcv,
}

const BY_PATH = new Map(Object.entries(ENDPOINTS).map(([name, e]) => [e.path as string, name as EndpointName]))

function toStore(data: MockServiceOptions['data']): CandleStore {
  if (data === undefined) return proceduralStore(defaultDataset)
  if ('seriesOf' in data) return data
  if ('candles' in data) return explicitStore(data)
  if ('listings' in data) return proceduralStore(data)
  throw new FixtureError('data: expected { exchanges, assets, candles }, { exchanges, assets, listings } or a CandleStore')
}

function uniqueBy<T>(name: string, records: T[], key: (r: T) => string): Map<string, T> {
  const map = new Map<string, T>()
  records.forEach((r, i) => {
    if (map.has(key(r))) throw new FixtureError(`${name}[${i}]: duplicate id '${key(r)}'`)
    map.set(key(r), r)
  })
  return map
}

function parseUrl(url: string): URL | undefined {
  try {
    return url.startsWith('/') ? new URL(`http://service.invalid${url}`) : new URL(url)
  } catch {
    return undefined
  }
}

function checkResponse(endpoint: EndpointName, res: MockResponse): void {
  if (res.networkError) return
  const schema = res.status === 200 ? responseSchemas[endpoint] : res.status === 422 ? validationErrorBodySchema : errorBodySchema
  const result = compiled(schema as z.ZodMiniType).safeParse(res.body)
  if (!result.success) {
    throw new Error(`Reference service answered ${endpoint} ${res.status} with a body its own schema rejects: ${describeIssue(result.error.issues[0]!, 'body')}`)
  }
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
  const index = new SeriesIndex(toStore(options.data))
  const plans = uniqueBy('plans', checkRecords('plans', options.plans ?? demoPlans, planSchema), (p) => p.id)
  const accounts = uniqueBy('accounts', checkRecords('accounts', options.accounts ?? demoAccounts, accountSchema), (a) => a.id)
  const keyRecords = checkRecords('keys', options.keys ?? demoKeys, apiKeySchema, (k) =>
    k !== null && typeof k === 'object' && typeof (k as ApiKey).key === 'string' ? { ...k, key: hintOf((k as ApiKey).key) } : k,
  )
  const seenKeys = new Set<string>()
  keyRecords.forEach((k, i) => {
    if (seenKeys.has(k.key)) throw new FixtureError(`keys[${i}]: the key ${hintOf(k.key)} appears twice`)
    seenKeys.add(k.key)
  })
  ;[...accounts.values()].forEach((a, i) => {
    if (!plans.has(a.plan)) throw new FixtureError(`accounts[${i}]: unknown plan '${a.plan}'`)
  })
  keyRecords.forEach((k, i) => {
    if (!accounts.has(k.account)) throw new FixtureError(`keys[${i}]: unknown account '${k.account}'`)
  })
  const perSecond = options.rateLimit === false ? 0 : options.rateLimit?.perSecond ?? 10
  if (options.rateLimit !== false && !(Number.isInteger(perSecond) && perSecond > 0)) {
    throw new TypeError(`rateLimit.perSecond must be a positive integer, got ${perSecond}`)
  }
  const clock = createClock(options.now)
  const keys = new KeyRing()
  const faults = new FaultQueue()
  const ctx: ServiceContext = {
    index,
    plans,
    accounts,
    keys,
    usage: new Map(),
    limiter: options.rateLimit === false ? undefined : new RateLimiter(perSecond, options.rateLimit?.clock ?? (() => performance.now())),
    clock,
  }
  let ready = keys.load(keyRecords)
  // Awaited by every request; this only keeps a failure from going unhandled before the first one.
  ready.catch(() => {})

  return {
    async handle(request) {
      await ready
      const url = parseUrl(request.url)
      if (url?.pathname === OPENAPI_PATH) return openApiRoute(request.method)
      const endpoint = url && BY_PATH.get(url.pathname)
      if (!url || !endpoint) return fail(404, 'Not Found')
      if (request.method !== 'GET') return fail(405, 'Method Not Allowed', { allow: 'GET' })
      // Injected faults are wrong on purpose: only the service's own answers are checked.
      const fault = faults.take(url.pathname)
      if (fault) return fault
      const res = await ROUTES[endpoint](ctx, rawQueryOf(url.searchParams), request.headers)
      if (options.validateResponses) checkResponse(endpoint, res)
      return res
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
      ctx.limiter?.clear()
      faults.clear()
      clock.reset()
      ready = keys.load(keyRecords)
      await ready
    },
  }
}
