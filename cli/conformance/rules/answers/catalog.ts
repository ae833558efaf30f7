import type { Coverage } from '../../facts.js'
import { HOUR, iso } from '../../facts.js'
import { instantOf, midnightOf } from '../../instant.js'
import { about, show, type Rule } from '../../rule.js'
import { DECISION, IFACE } from '../../sources.js'

const ms = instantOf

/** Exchanges by `name`, assets by `ticker`, pair coverage by `base` then `quote`, all ascending. */
export const catalogOrder: Rule = {
  id: 'catalog-order',
  title: 'exchanges by name, assets by ticker, pair coverage entries by base then quote, all ascending',
  anchor: 'catalog-order',
  sources: [DECISION.D8],
  async run(ctx) {
    const sorted = (keys: string[]) => keys.every((k, i) => i === 0 || keys[i - 1]! < k)
    const lists: Array<[string, Record<string, string>, (row: any) => string]> = [
      ['/v1/exchanges', {}, (r) => r.name],
      ['/v1/assets', {}, (r) => r.ticker],
      ['/v1/aggregated_pairs', { interval: '1h' }, (r) => `${r.base}\u0000${r.quote}`],
    ]
    for (const exchange of await ctx.facts.sampleExchanges()) lists.push(['/v1/exchange_pairs', { exchange: exchange.name, interval: '1h' }, (r) => `${r.base}\u0000${r.quote}`])
    for (const [path, query, keyOf] of lists) {
      const rows = await ctx.facts.catalog<any>(path, query)
      const keys = rows.map(keyOf)
      const order = keys.map((k) => k.replace('\u0000', '/'))
      ctx.check(DECISION.D8, sorted(keys), { message: `${path} is not in ascending order`, request: `GET ${path}?${new URLSearchParams(query)}`, expected: 'ascending, no repeat', actual: order.join(', ').slice(0, 300) })
    }
  },
}

/**
 * A pair's `first_close_ts` and `last_close_ts` are its real first and last candles: one pair per
 * exchange and interval, and one aggregated pair, each checked with three candle requests.
 */
export const catalogCoverage: Rule = {
  id: 'catalog-coverage',
  title: "a pair's first_close_ts / last_close_ts are the first and last close_ts of its candles, up to now",
  anchor: 'resources',
  sources: [IFACE.coverageFirst, IFACE.coverageLast, IFACE.closingDate],
  async run(ctx) {
    const targets: Array<{ endpoint: 'exchange_ohlcv' | 'aggregated_ohlcv'; params: Record<string, string>; pair: Coverage }> = []
    for (const exchange of await ctx.facts.sampleExchanges()) {
      for (const interval of ctx.facts.intervals) {
        const pairs = await ctx.facts.catalog<Coverage>('/v1/exchange_pairs', { exchange: exchange.name, interval })
        const pair = pairs[0]
        if (pair) targets.push({ endpoint: 'exchange_ohlcv', params: { exchange: exchange.name, interval, base: pair.base, quote: pair.quote }, pair })
        for (const p of pairs) {
          ctx.check(IFACE.coverageFirst, ms(p.first_close_ts) <= ms(p.last_close_ts), { message: 'first_close_ts is after last_close_ts', request: `GET /v1/exchange_pairs?exchange=${exchange.name}&interval=${interval}`, expected: 'first_close_ts <= last_close_ts', actual: JSON.stringify(p) })
          if (exchange.closing_date != null) {
            ctx.check(IFACE.closingDate, ms(p.last_close_ts) <= midnightOf(exchange.closing_date), { message: `a pair of the closed exchange ${exchange.name} has candles after its closing_date`, request: `GET /v1/exchange_pairs?exchange=${exchange.name}&interval=${interval}`, expected: `last_close_ts <= ${exchange.closing_date}T00:00:00Z`, actual: JSON.stringify(p) })
          }
        }
      }
    }
    const aggregated = (await ctx.facts.catalog<Coverage>('/v1/aggregated_pairs', { interval: '1h' }))[0]
    if (aggregated) targets.push({ endpoint: 'aggregated_ohlcv', params: { interval: '1h', base: aggregated.base, quote: aggregated.quote }, pair: aggregated })

    const keys = [ctx.key, ...ctx.planKeys.values()].filter((k) => k !== undefined)
    if (keys.length === 0) ctx.skip('no API key: give --api-key-file (or MARKET_CANDLES_API_KEY)')
    let checked = 0
    for (const { endpoint, params, pair } of targets) {
      const first = ms(pair.first_close_ts)
      const last = ms(pair.last_close_ts)
      const path = `/v1/${endpoint}`
      // The first key whose plan reaches the first candle (an unlimited plan reaches every one).
      for (const key of keys) {
        const atFirst = await ctx.prober.get(path, { ...params, start: iso(first - 1), limit: '1' }, key)
        if (atFirst.status === 403) continue
        checked++
        const firstSeen = Array.isArray(atFirst.body) ? (atFirst.body as Array<{ close_ts: string }>)[0]?.close_ts : undefined
        ctx.check(IFACE.coverageFirst, atFirst.status === 200 && firstSeen !== undefined && ms(firstSeen) === first, about(atFirst, `the first candle is not at first_close_ts ${pair.first_close_ts}`, `200 whose first close_ts is ${pair.first_close_ts}`, `${atFirst.status} close_ts ${firstSeen ?? '(none)'}`))
        const before = await ctx.prober.get(path, { ...params, end: iso(first - 1), limit: '1' }, key)
        ctx.check(IFACE.coverageFirst, before.status === 200 && Array.isArray(before.body) && before.body.length === 0, about(before, `a candle exists before first_close_ts ${pair.first_close_ts}`, '200 []'))
        const atLast = await ctx.prober.get(path, { ...params, start: iso(last - 1), limit: '2' }, key)
        const rows = Array.isArray(atLast.body) ? (atLast.body as Array<{ close_ts: string }>).map((c) => ms(c.close_ts)).sort((a, b) => a - b) : []
        // On a live service a candle may close between the catalog call and this one; anything
        // later than last_close_ts must be that recent.
        const fetchedAt = Date.now()
        const stale = rows.filter((t) => t > last && t < fetchedAt - 2 * intervalMs(params.interval!) - 5 * 60_000)
        ctx.check(IFACE.coverageLast, atLast.status === 200 && rows[0] === last && stale.length === 0, about(atLast, `the last candle is not at last_close_ts ${pair.last_close_ts}`, `200 whose first close_ts is ${pair.last_close_ts}, and nothing later but candles that closed since`, `${atLast.status} close_ts ${rows.map(iso).join(', ') || '(none)'}`))
        break
      }
    }
    if (checked === 0) ctx.skip('no key reaches the first candle of any pair (every try answered 403)')
  },
}

function intervalMs(interval: string): number {
  return interval === '1m' ? 60_000 : interval === '1h' ? HOUR : 24 * HOUR
}

/** The catalog is public (interface.md); it ignores the header entirely, present or not, valid or not (D2). */
export const catalogNoKey: Rule = {
  id: 'catalog-no-key',
  title: 'the catalog endpoints answer without a key; the reference ignores the X-API-Key header entirely, present or not, valid or not',
  anchor: 'authentication',
  sources: [IFACE.catalogPublic, DECISION.D2],
  async run(ctx) {
    const exchange = (await ctx.facts.exchanges())[0]?.name ?? 'unknown'
    const calls: Array<[string, Record<string, string>]> = [
      ['/v1/exchanges', {}],
      ['/v1/assets', {}],
      ['/v1/exchange_pairs', { exchange, interval: '1h' }],
      ['/v1/aggregated_pairs', { interval: '1h' }],
    ]
    for (const [path, query] of calls) {
      const plain = await ctx.prober.get(path, query)
      ctx.check(IFACE.catalogPublic, plain.status === 200, about(plain, `${path} needs something without a key`, '200'))
      const variants = [{ literal: 'conformance-not-a-key' }, { literal: ' ' }, ...(ctx.key ? [ctx.key] : [])]
      for (const key of variants) {
        const other = await ctx.prober.get(path, query, key)
        // A live catalog may move between two calls (a new last_close_ts): same status, same rows.
        const same = other.status === plain.status && (other.text === plain.text || (Array.isArray(other.body) && Array.isArray(plain.body) && other.body.length === plain.body.length))
        ctx.check(DECISION.D2, same, about(other, `${path} answers differently with a key header`, `the same as without a key: ${show(plain)}`))
      }
    }
  },
}
