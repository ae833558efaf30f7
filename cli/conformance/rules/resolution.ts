import type { Answer } from '../prober.js'
import { about, type Rule } from '../rule.js'

const hasDetail = (a: Answer) => typeof (a.body as { detail?: unknown } | undefined)?.detail === 'string'

/** An unknown exchange, interval, method or pair is a 404, never an empty array; values match exactly. */
export const resolution404: Rule = {
  id: 'resolution-404',
  title: 'an exchange, interval, method or pair that does not resolve is a 404 on every endpoint that takes it, never an empty array; values match case-sensitively',
  anchor: 'resolution',
  async run(ctx) {
    const ex = await ctx.facts.series('exchange_ohlcv')
    const exchange = ex.params.exchange!
    const cases: Array<[string, Record<string, string>, boolean]> = [
      ['/v1/exchange_pairs', { exchange: 'conformance-unknown-exchange', interval: '1h' }, false],
      ['/v1/exchange_pairs', { exchange, interval: '4h' }, false],
      ['/v1/exchange_pairs', { exchange: exchange.toUpperCase() === exchange ? exchange.toLowerCase() : exchange.toUpperCase(), interval: '1h' }, false],
      ['/v1/aggregated_pairs', { interval: '4h' }, false],
      ['/v1/aggregated_pairs', { interval: '1h', method: 'conformance_unknown_method' }, false],
    ]
    if (ctx.key !== undefined) {
      cases.push(
        ['/v1/exchange_ohlcv', { ...ex.params, exchange: 'conformance-unknown-exchange' }, true],
        ['/v1/exchange_ohlcv', { ...ex.params, interval: '4h' }, true],
        ['/v1/exchange_ohlcv', { ...ex.params, base: 'CONFORMANCE-UNKNOWN' }, true],
        ['/v1/exchange_ohlcv', { ...ex.params, base: ex.params.base!.toLowerCase() }, true],
        ['/v1/aggregated_ohlcv', { interval: '4h', base: ex.params.base!, quote: ex.params.quote! }, true],
        ['/v1/aggregated_ohlcv', { interval: '1h', base: ex.params.base!, quote: ex.params.quote!, method: 'conformance_unknown_method' }, true],
        ['/v1/aggregated_ohlcv', { interval: '1h', base: 'CONFORMANCE-UNKNOWN', quote: ex.params.quote! }, true],
      )
    }
    for (const [path, query, withKey] of cases) {
      const a = await ctx.prober.get(path, query, withKey ? ctx.key : undefined)
      // A key whose plan lacks aggregated_ohlcv may answer 403 there only if 404 came first: it must not.
      ctx.check(a.status === 404 && hasDetail(a), about(a, 'a value that does not resolve is not a 404', '404 {"detail": "<names the value>"}'))
    }
  },
}
