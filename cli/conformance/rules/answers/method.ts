import type { Coverage } from '../../facts.js'
import { HOUR, iso } from '../../facts.js'
import { instantOf } from '../../instant.js'
import { about, type Rule } from '../../rule.js'
import { IFACE } from '../../sources.js'

/** The only aggregation methodology interface.md names. */
const METHOD = 'omm_vwap_v1'

/** aggregated_ohlcv with `method=omm_vwap_v1` answers what it answers with `method` left out. */
export const methodDefault: Rule = {
  id: 'method-default',
  title: `aggregated_ohlcv with method=${METHOD} given explicitly answers the same candles as with method left out (its default)`,
  anchor: 'endpoints',
  sources: [IFACE.method],
  async run(ctx) {
    const series = await ctx.facts.series('aggregated_ohlcv')
    const w = await ctx.facts.window('aggregated_ohlcv')
    const queries: Array<Record<string, string>> = [
      { start: iso(w[5]! - HOUR / 2), limit: '5' },
      { end: iso(w[20]!), limit: '3' },
    ]
    for (const query of queries) {
      const omitted = await ctx.facts.page(series, query)
      const given = await ctx.facts.page(series, { ...query, method: METHOD })
      const same = omitted.status === given.status && omitted.candles.length === given.candles.length && omitted.candles.every((c, i) => c === given.candles[i])
      ctx.evidence(`${Object.entries(query).map(([k, v]) => `${k}=${v}`).join('&')}: method left out -> ${omitted.status}, ${omitted.candles.length} candles; method=${METHOD} -> ${given.status}, ${given.candles.length} candles${same ? ', the same' : ', different'}`)
      ctx.check(IFACE.method, same && omitted.status === 200, about(given.answer, `method=${METHOD} does not answer what its default answers`, `the answer without method: ${omitted.status} ${omitted.candles.join(',').slice(0, 250)}`, `${given.status} ${given.candles.join(',').slice(0, 250)}`))
    }
  },
}

/**
 * aggregated_pairs without `method` is the union over every method: with `omm_vwap_v1` the only
 * one, the same pairs and coverage as with `method=omm_vwap_v1` (a live service's last_close_ts may
 * move forward between the two calls).
 */
export const pairsMethodUnion: Rule = {
  id: 'pairs-method-union',
  title: `aggregated_pairs without method is the union of every method's pairs: with ${METHOD} the only method, the pairs and coverage of method=${METHOD}`,
  anchor: 'catalog',
  sources: [IFACE.methodUnion],
  async run(ctx) {
    for (const interval of ['1h', '1d']) {
      const given = await ctx.prober.get('/v1/aggregated_pairs', { interval, method: METHOD })
      const union = await ctx.prober.get('/v1/aggregated_pairs', { interval })
      if (!ctx.check(IFACE.methodUnion, given.status === 200 && union.status === 200 && Array.isArray(given.body) && Array.isArray(union.body), about(given, `aggregated_pairs at ${interval} with and without method=${METHOD} are not both arrays`, '200 [...] both', `with method: ${given.status}; without: ${union.status}`))) continue
      const key = (p: Coverage) => `${p.base}/${p.quote}`
      const byPair = new Map((union.body as Coverage[]).map((p) => [key(p), p]))
      const methodPairs = given.body as Coverage[]
      const missing = methodPairs.filter((p) => !byPair.has(key(p))).map(key)
      const extra = [...byPair.keys()].filter((k) => !methodPairs.some((p) => key(p) === k))
      const narrower = methodPairs.filter((p) => {
        const u = byPair.get(key(p))
        return u !== undefined && (instantOf(u.first_close_ts) !== instantOf(p.first_close_ts) || instantOf(u.last_close_ts) < instantOf(p.last_close_ts))
      })
      ctx.evidence(`interval ${interval}: method=${METHOD} lists ${methodPairs.length} pairs, method left out ${byPair.size}; ${missing.length + extra.length + narrower.length === 0 ? 'the same pairs and coverage' : 'different'}`)
      ctx.check(IFACE.methodUnion, missing.length === 0 && extra.length === 0 && narrower.length === 0, about(union, `aggregated_pairs at ${interval} without method is not the union of the methods' pairs`, `the pairs and coverage of method=${METHOD} (${methodPairs.map(key).join(', ').slice(0, 200)})`, [missing.length > 0 && `left out: ${missing.join(', ')}`, extra.length > 0 && `not listed by any method: ${extra.join(', ')}`, narrower.length > 0 && `other coverage: ${narrower.map(key).join(', ')}`].filter(Boolean).join('; ')))
    }
  },
}
