import type { Answer } from '../../prober.js'
import { about, type Rule } from '../../rule.js'
import { DECISION, IFACE, type Source } from '../../sources.js'

const hasDetail = (a: Answer) => typeof (a.body as { detail?: unknown } | undefined)?.detail === 'string'

/**
 * An unknown exchange, interval or method on the pairs endpoints is a 404, never an empty array
 * (interface.md). The reference also matches values case-sensitively and answers 404 on the candle
 * endpoints, for an unknown pair too (D4), with a detail naming the value (D1).
 */
export const resolution404: Rule = {
  id: 'resolution-404',
  title: 'an exchange, interval or method that does not resolve is a 404 on the pairs endpoints, never an empty array; the reference: on every endpoint that takes it, an unknown pair too, case-sensitively',
  anchor: 'resolution',
  sources: [IFACE.catalog404, DECISION.D4, DECISION.D1],
  async run(ctx) {
    const ex = await ctx.facts.series('exchange_ohlcv')
    const exchange = ex.params.exchange!
    const cases: Array<[string, Record<string, string>, boolean, Source]> = [
      ['/v1/exchange_pairs', { exchange: 'conformance-unknown-exchange', interval: '1h' }, false, IFACE.catalog404],
      ['/v1/exchange_pairs', { exchange, interval: '4h' }, false, IFACE.catalog404],
      ['/v1/exchange_pairs', { exchange: exchange.toUpperCase() === exchange ? exchange.toLowerCase() : exchange.toUpperCase(), interval: '1h' }, false, DECISION.D4],
      ['/v1/aggregated_pairs', { interval: '4h' }, false, IFACE.catalog404],
      ['/v1/aggregated_pairs', { interval: '1h', method: 'conformance_unknown_method' }, false, IFACE.catalog404],
    ]
    if (ctx.key !== undefined) {
      cases.push(
        ['/v1/exchange_ohlcv', { ...ex.params, exchange: 'conformance-unknown-exchange' }, true, DECISION.D4],
        ['/v1/exchange_ohlcv', { ...ex.params, interval: '4h' }, true, DECISION.D4],
        ['/v1/exchange_ohlcv', { ...ex.params, base: 'CONFORMANCE-UNKNOWN' }, true, DECISION.D4],
        ['/v1/exchange_ohlcv', { ...ex.params, base: ex.params.base!.toLowerCase() }, true, DECISION.D4],
        ['/v1/aggregated_ohlcv', { interval: '4h', base: ex.params.base!, quote: ex.params.quote! }, true, DECISION.D4],
        ['/v1/aggregated_ohlcv', { interval: '1h', base: ex.params.base!, quote: ex.params.quote!, method: 'conformance_unknown_method' }, true, DECISION.D4],
        ['/v1/aggregated_ohlcv', { interval: '1h', base: 'CONFORMANCE-UNKNOWN', quote: ex.params.quote! }, true, DECISION.D4],
      )
    }
    for (const [path, query, withKey, source] of cases) {
      const a = await ctx.prober.get(path, query, withKey ? ctx.key : undefined)
      // A key whose plan lacks aggregated_ohlcv may answer 403 there only if 404 came first: it must not.
      if (ctx.check(source, a.status === 404, about(a, 'a value that does not resolve is not a 404', '404'))) {
        ctx.check(DECISION.D1, hasDetail(a), about(a, 'a 404 without a detail naming the value', '404 {"detail": "<names the value>"}'))
      }
    }
  },
}
