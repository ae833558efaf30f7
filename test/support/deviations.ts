/*
 * Deliberate deviations from the contract, for testing `market-candles conformance`: each wraps the
 * reference service's `handle` so that one rule is broken. Test-only: nothing here is exported by
 * the package, so no user gets a "broken" switch by accident.
 */
import type { MockRequest, MockResponse, MockService } from '../../mocks/index.js'
import { parseDateTime } from '../../src/contract/index.js'

type Next = (request: MockRequest) => Promise<MockResponse>

/**
 * One deviation: its name, the conformance rule it breaks, whether that breaks a statement of
 * interface.md (`failure`) or fills a gap otherwise than the reference's decisions (`difference`),
 * and how it answers instead.
 */
export interface Deviation {
  name: string
  breaks: string
  kind: 'failure' | 'difference'
  /** Extra flags for the run (an opt-in rule). */
  flags?: string[]
  handle(request: MockRequest, next: Next): Promise<MockResponse>
}

const CANDLES = /^\/v1\/(exchange|aggregated)_ohlcv$/
const CATALOG = /^\/v1\/(exchanges|assets|exchange_pairs|aggregated_pairs)$/
const NOW = Date.parse('2025-01-01T00:00:00Z')
const DAY = 86_400_000

function parts(request: MockRequest): { path: string; query: URLSearchParams } {
  const url = new URL(request.url, 'http://service')
  return { path: url.pathname, query: url.searchParams }
}

function withQuery(request: MockRequest, change: (q: URLSearchParams) => void): MockRequest {
  const { path, query } = parts(request)
  change(query)
  return { ...request, url: `${path}?${query}` }
}

function keyOf(request: MockRequest): string | undefined {
  const h = request.headers
  if (!h) return undefined
  if (h instanceof Headers) return h.get('x-api-key') ?? undefined
  const v = h['x-api-key']
  return typeof v === 'string' ? v : undefined
}

const withoutHeader = (res: MockResponse, name: string): MockResponse => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== name)) })

/** A counted call on behalf of `key`, as if the request in hand had been counted. */
const countFor = (next: Next, key: string) => next({ method: 'GET', url: '/v1/exchange_ohlcv?exchange=bitstamp&interval=1d&base=BTC&quote=USD&limit=1', headers: { 'x-api-key': key } })

/** A datetime with its fractional seconds rounded to the millisecond (the old parser's bug). */
function roundToMs(text: string): string {
  const m = /^(.*T\d\d:\d\d:\d\d)[.,](\d{4,9})(Z|z)$/.exec(text)
  if (!m) return text
  return new Date(Date.parse(`${m[1]}Z`) + Math.round(Number(`0.${m[2]}`) * 1000)).toISOString()
}

/**
 * A datetime written as the prober writes them, moved by `ms`, its fractional digits kept; one with
 * a numeric offset is moved as the instant it denotes (written in `Z`); other text unchanged.
 */
function shiftInstant(text: string, ms: number): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z$/.exec(text)
  if (!m) {
    const parsed = parseDateTime(text)
    return parsed.ok && /[+-]\d\d:\d\d$/.test(text) ? new Date(parsed.ms + ms).toISOString() : text
  }
  if (Date.parse(`${m[1]}Z`) < Date.parse('1970-01-01T00:00:00Z')) return text
  return `${new Date(Date.parse(`${m[1]}Z`) + ms).toISOString().slice(0, 19)}${m[2] ?? ''}Z`
}

/** Every `close_ts`-like field of a body moved by `ms` (candles and pair coverage entries). */
function shiftBody(body: unknown, ms: number): unknown {
  if (!Array.isArray(body)) return body
  return body.map((row: Record<string, unknown>) => {
    const out = { ...row }
    for (const name of ['close_ts', 'first_close_ts', 'last_close_ts']) if (typeof out[name] === 'string') out[name] = shiftInstant(out[name] as string, ms)
    return out
  })
}

export const DEVIATIONS: Deviation[] = [
  {
    name: 'paging off by one: a start equal to a close_ts (written with Z) skips that candle',
    breaks: 'inclusive-bounds',
    kind: 'failure',
    handle: (req, next) => {
      const start = parts(req).query.get('start')
      if (!CANDLES.test(parts(req).path) || start === null || !start.endsWith('Z') || Number.isNaN(Date.parse(start))) return next(req)
      return next(withQuery(req, (q) => q.set('start', new Date(Date.parse(start) + 1).toISOString())))
    },
  },
  {
    name: '`end` moving the anchor: with start and end, the page is the last limit candles before end',
    breaks: 'start-anchor-with-end',
    kind: 'failure',
    handle: async (req, next) => {
      const { path, query } = parts(req)
      const res = await next(req)
      if (!CANDLES.test(path) || !query.has('start') || !query.has('end') || res.status !== 200) return res
      if ((res.body as unknown[]).length < Number(query.get('limit') ?? 500)) return res
      return next(withQuery(req, (q) => q.delete('start')))
    },
  },
  {
    name: 'descending order',
    breaks: 'ascending',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      return CANDLES.test(parts(req).path) && Array.isArray(res.body) ? { ...res, body: [...res.body].reverse() } : res
    },
  },
  {
    name: '200 [] instead of 404 on the pairs endpoints',
    breaks: 'resolution-404',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      return /_pairs$/.test(parts(req).path) && res.status === 404 ? { ...res, status: 200, body: [] } : res
    },
  },
  {
    name: 'a missing header: no RateLimit-Reset on a candle 200',
    breaks: 'ratelimit-headers',
    kind: 'difference',
    handle: async (req, next) => {
      const res = await next(req)
      return res.status === 200 && CANDLES.test(parts(req).path) ? withoutHeader(res, 'ratelimit-reset') : res
    },
  },
  {
    name: 'a wrong default limit (100)',
    breaks: 'default-limit',
    kind: 'failure',
    handle: (req, next) => (CANDLES.test(parts(req).path) && !parts(req).query.has('limit') ? next(withQuery(req, (q) => q.set('limit', '100'))) : next(req)),
  },
  {
    name: 'a counted catalog call (when it carries a key)',
    breaks: 'catalog-not-counted',
    kind: 'failure',
    handle: async (req, next) => {
      const key = keyOf(req)
      if (CATALOG.test(parts(req).path) && key) await countFor(next, key)
      return next(req)
    },
  },
  {
    name: 'counted errors: a 403, 404 or 422 with a key is counted',
    breaks: 'errors-not-counted',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      const key = keyOf(req)
      if (CANDLES.test(parts(req).path) && key && [403, 404, 422].includes(res.status)) await countFor(next, key)
      return res
    },
  },
  {
    name: 'sub-millisecond digits rounded to the millisecond (start/end with 4 to 9 fractional digits)',
    breaks: 'fractional-bounds',
    kind: 'failure',
    handle: (req, next) =>
      next(withQuery(req, (q) => {
        for (const name of ['start', 'end']) if (q.has(name)) q.set(name, roundToMs(q.get(name)!))
      })),
  },
  {
    name: 'limit above 1000 served as 1000 instead of a 422',
    breaks: 'limit-bounds',
    kind: 'failure',
    handle: (req, next) => (Number(parts(req).query.get('limit')) > 1000 ? next(withQuery(req, (q) => q.set('limit', '1000'))) : next(req)),
  },
  {
    name: 'the catalog answers [] to an invalid key instead of ignoring it',
    breaks: 'catalog-no-key',
    kind: 'difference',
    handle: async (req, next) => {
      const res = await next(req)
      const key = keyOf(req)
      return CATALOG.test(parts(req).path) && key !== undefined && !key.startsWith('demo-') ? { ...res, body: [] } : res
    },
  },
  {
    name: 'a 401 without WWW-Authenticate',
    breaks: 'auth-401',
    kind: 'difference',
    handle: async (req, next) => {
      const res = await next(req)
      return res.status === 401 ? withoutHeader(res, 'www-authenticate') : res
    },
  },
  {
    name: 'a 422 reports only its first issue',
    breaks: 'validation-422',
    kind: 'difference',
    handle: async (req, next) => {
      const res = await next(req)
      const detail = (res.body as { detail?: unknown }).detail
      return res.status === 422 && Array.isArray(detail) ? { ...res, body: { detail: detail.slice(0, 1) } } : res
    },
  },
  {
    name: 'resolution before validation: an unknown exchange is a 404 whatever the other parameters',
    breaks: 'order-of-checks',
    kind: 'difference',
    handle: (req, next) => {
      const exchange = parts(req).query.get('exchange')
      if (CANDLES.test(parts(req).path) && exchange && !['bitstamp', 'ftx'].includes(exchange)) {
        return Promise.resolve({ status: 404, headers: { 'content-type': 'application/json' }, body: { detail: `Unknown exchange '${exchange}'` } })
      }
      return next(req)
    },
  },
  {
    name: "a pair's last_close_ts one interval short of its last candle",
    breaks: 'catalog-coverage',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      const { path, query } = parts(req)
      if (path !== '/v1/exchange_pairs' || res.status !== 200) return res
      const step = { '1m': 60_000, '1h': 3_600_000, '1d': DAY }[query.get('interval') ?? ''] ?? 0
      const body = (res.body as Array<{ last_close_ts: string }>).map((p) => ({ ...p, last_close_ts: new Date(Date.parse(p.last_close_ts) - step).toISOString().replace('.000Z', 'Z') }))
      return { ...res, body }
    },
  },
  {
    name: 'assets out of ticker order',
    breaks: 'catalog-order',
    kind: 'difference',
    handle: async (req, next) => {
      const res = await next(req)
      return parts(req).path === '/v1/assets' && Array.isArray(res.body) ? { ...res, body: [...res.body].reverse() } : res
    },
  },
  {
    name: 'a candle field of the wrong type (open as a string)',
    breaks: 'openapi',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      if (!CANDLES.test(parts(req).path) || !Array.isArray(res.body)) return res
      return { ...res, body: (res.body as Array<{ open: number }>).map((c) => ({ ...c, open: String(c.open) })) }
    },
  },
  {
    name: 'HEAD served like GET',
    breaks: 'other-requests',
    kind: 'difference',
    handle: (req, next) => (req.method === 'HEAD' ? next({ ...req, method: 'GET' }) : next(req)),
  },
  {
    name: "the plan's history depth ignored",
    breaks: 'plan-depth',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      const detail = (res.body as { detail?: unknown }).detail
      return res.status === 403 && typeof detail === 'string' && detail.includes('history depth') ? next({ ...req, headers: { 'x-api-key': 'demo-enterprise-key' } }) : res
    },
  },
  {
    name: 'an endpoint the plan lacks served anyway (aggregated_ohlcv for free)',
    breaks: 'plan-access',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      const detail = (res.body as { detail?: unknown }).detail
      return res.status === 403 && typeof detail === 'string' && detail.includes('does not include aggregated_ohlcv') ? next({ ...req, headers: { 'x-api-key': 'demo-enterprise-key' } }) : res
    },
  },
  {
    name: 'paging backward off by one: without start, a page of 5 up to end leaves out its newest candle',
    breaks: 'forward-backward',
    kind: 'failure',
    handle: async (req, next) => {
      const { path, query } = parts(req)
      const res = await next(req)
      if (!CANDLES.test(path) || query.has('start') || !query.has('end') || query.get('limit') !== '5' || res.status !== 200) return res
      const rows = res.body as Array<{ close_ts: string }>
      if (rows.length === 0) return res
      return next(withQuery(req, (q) => q.set('end', new Date(Date.parse(rows.at(-1)!.close_ts) - 1).toISOString())))
    },
  },
  {
    name: 'without start or end, the page starts 30 days back instead of ending at the latest candle',
    breaks: 'latest-page',
    kind: 'failure',
    handle: (req, next) => {
      const { path, query } = parts(req)
      if (!CANDLES.test(path) || query.has('start') || query.has('end')) return next(req)
      return next(withQuery(req, (q) => q.set('start', new Date(NOW - 30 * DAY + 3_600_000).toISOString())))
    },
  },
  {
    name: 'candles closing 30 seconds before their grid point (paging and coverage consistent with it)',
    breaks: 'close-on-grid',
    kind: 'difference',
    handle: async (req, next) => {
      const { path } = parts(req)
      if (CANDLES.test(path)) {
        // The bounds move with the data, so every rule but the grid's sees a consistent service.
        const moved = withQuery(req, (q) => {
          for (const name of ['start', 'end']) if (q.has(name)) q.set(name, shiftInstant(q.get(name)!, 30_000))
        })
        const res = await next(moved)
        return res.status === 200 ? { ...res, body: shiftBody(res.body, -30_000) } : next(req)
      }
      const res = await next(req)
      return /_pairs$/.test(path) && res.status === 200 ? { ...res, body: shiftBody(res.body, -30_000) } : res
    },
  },
  {
    name: 'high and low swapped',
    breaks: 'ohlc-order',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      if (!CANDLES.test(parts(req).path) || !Array.isArray(res.body)) return res
      return { ...res, body: (res.body as Array<{ high: number; low: number }>).map((c) => ({ ...c, high: c.low, low: c.high })) }
    },
  },
  {
    name: 'a negative base volume',
    breaks: 'volumes-non-negative',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      if (!CANDLES.test(parts(req).path) || !Array.isArray(res.body)) return res
      return { ...res, body: (res.body as Array<{ base_volume: number }>).map((c) => ({ ...c, base_volume: c.base_volume === 0 ? -1 : -c.base_volume })) }
    },
  },
  {
    name: "an aggregated candle naming its exchange by the feed's own label ('Bitstamp'), unknown to /v1/exchanges",
    breaks: 'aggregated-exchanges',
    kind: 'failure',
    handle: async (req, next) => {
      const res = await next(req)
      if (parts(req).path !== '/v1/aggregated_ohlcv' || !Array.isArray(res.body)) return res
      const label = (e: string) => e.charAt(0).toUpperCase() + e.slice(1)
      return { ...res, body: (res.body as Array<{ exchanges: string[] }>).map((c) => ({ ...c, exchanges: c.exchanges.map(label) })) }
    },
  },
  {
    name: 'without start, end exclusive: a page up to end leaves out the candle closing at end',
    breaks: 'end-without-start',
    kind: 'failure',
    handle: (req, next) => {
      const { path, query } = parts(req)
      const end = query.get('end')
      const parsed = end === null ? undefined : parseDateTime(end)
      if (!CANDLES.test(path) || query.has('start') || !parsed?.ok) return next(req)
      return next(withQuery(req, (q) => q.set('end', new Date(Math.ceil(parsed.ms) - 1).toISOString())))
    },
  },
  {
    name: 'a numeric offset ignored: start/end with +02:00 read as if it were Z',
    breaks: 'offset-bounds',
    kind: 'failure',
    handle: (req, next) =>
      next(withQuery(req, (q) => {
        for (const name of ['start', 'end']) if (q.has(name)) q.set(name, q.get(name)!.replace(/[+-]\d\d:\d\d$/, 'Z'))
      })),
  },
  {
    name: 'method=omm_vwap_v1 given explicitly on aggregated_ohlcv leaves out the last candle of the page',
    breaks: 'method-default',
    kind: 'failure',
    handle: async (req, next) => {
      const { path, query } = parts(req)
      const res = await next(req)
      return path === '/v1/aggregated_ohlcv' && query.get('method') === 'omm_vwap_v1' && Array.isArray(res.body) ? { ...res, body: res.body.slice(0, -1) } : res
    },
  },
  {
    name: 'aggregated_pairs without method lists pairs no method has (with method=omm_vwap_v1: the first pair only)',
    breaks: 'pairs-method-union',
    kind: 'failure',
    handle: async (req, next) => {
      const { path, query } = parts(req)
      const res = await next(req)
      return path === '/v1/aggregated_pairs' && query.get('method') === 'omm_vwap_v1' && Array.isArray(res.body) ? { ...res, body: res.body.slice(0, 1) } : res
    },
  },
  {
    name: 'a 429 without Retry-After',
    breaks: 'rate-limit',
    kind: 'difference',
    flags: ['--include', 'rate-limit'],
    handle: async (req, next) => {
      const res = await next(req)
      return res.status === 429 ? withoutHeader(res, 'retry-after') : res
    },
  },
]

/** The reference service with one deviation: every other method is the real service's. */
export function deviate(service: MockService, deviation: Deviation): MockService {
  return { ...service, handle: (request) => deviation.handle(request, (r) => service.handle(r)) }
}
