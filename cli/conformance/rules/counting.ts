import type { CandleEndpointName } from '../../../src/contract/index.js'
import type { Answer } from '../prober.js'
import { about, type Rule, type RuleContext } from '../rule.js'

const UNPACED = { paced: false }

/**
 * What the service counted between two candle calls, read from `RateLimit-Remaining` (the only
 * outside view of usage): after an idle second the window is empty, so a first 200 leaves
 * `Limit - 1`, and a second one `Limit - 2` plus whatever the calls in `between` were counted.
 * `between` sends its calls unpaced (a conforming service counts none of them) so that all of it
 * takes well under a second: a counted call leaves the window a second after it arrived, and would
 * then go unseen. A run slower than that is tried once more, then skipped as inconclusive.
 */
async function countedBetween(ctx: RuleContext, between: () => Promise<Answer[]>): Promise<{ after: Answer; extra: number; answers: Answer[] }> {
  if (ctx.key === undefined) ctx.skip('no API key: give --api-key-file (or MARKET_CANDLES_API_KEY)')
  const endpoint: CandleEndpointName = 'exchange_ohlcv'
  const series = await ctx.facts.series(endpoint)
  const probe = () => ctx.prober.get(`/v1/${endpoint}`, { ...series.params, limit: '1' }, ctx.key, { paced: false })
  const remaining = (a: Answer) => (/^\d+$/.test(a.headers['ratelimit-remaining'] ?? '') ? Number(a.headers['ratelimit-remaining']) : undefined)
  let span = 0
  for (let attempt = 0; attempt < 2; attempt++) {
    await ctx.prober.pacer.drainWindow()
    const before = await probe()
    if (before.status !== 200) ctx.skip(`${before.request} answered ${before.status}`)
    const first = remaining(before)
    if (first === undefined) ctx.skip('the candle 200 has no RateLimit-Remaining header, so usage cannot be seen from outside (rule ratelimit-headers)')
    const answers = await between()
    const after = await probe()
    const second = remaining(after)
    if (after.status !== 200 || second === undefined) ctx.skip(`${after.request} answered ${after.status} without RateLimit-Remaining`)
    await ctx.prober.pacer.drainWindow()
    span = after.receivedAt - before.sentAt
    if (span < 900) return { after, extra: Math.max(first - 1 - second, 0), answers }
  }
  return ctx.skip(`the calls took ${Math.round(span)} ms, too slow to read usage from a one-second window`)
}

/** Catalog calls are never counted, whatever their status, key or no key. */
export const catalogNotCounted: Rule = {
  id: 'catalog-not-counted',
  title: 'catalog calls are never counted, whatever their status',
  anchor: 'order-of-checks',
  async run(ctx) {
    const exchange = (await ctx.facts.exchanges())[0]?.name ?? 'unknown'
    const { after, extra } = await countedBetween(ctx, async () => [
      await ctx.prober.get('/v1/exchanges', {}, ctx.key, UNPACED),
      await ctx.prober.get('/v1/assets', {}, ctx.key, UNPACED),
      await ctx.prober.get('/v1/exchange_pairs', { exchange, interval: '1h' }, ctx.key, UNPACED),
      await ctx.prober.get('/v1/aggregated_pairs', { interval: '1h' }, ctx.key, UNPACED),
      await ctx.prober.get('/v1/exchange_pairs', { exchange: 'conformance-unknown-exchange', interval: '1h' }, ctx.key, UNPACED),
    ])
    ctx.check(extra === 0, about(after, `${extra} of 5 catalog calls (with the key) were counted`, `RateLimit-Remaining one less than after the previous candle call`, `RateLimit-Remaining ${after.headers['ratelimit-remaining']}`))
  },
}

/** Only a 200 from a candle endpoint is counted: 403, 404 and 422 never are. */
export const errorsNotCounted: Rule = {
  id: 'errors-not-counted',
  title: 'only a 200 from a candle endpoint is counted; 403, 404 and 422 never are',
  anchor: 'order-of-checks',
  async run(ctx) {
    const series = await ctx.facts.series('exchange_ohlcv')
    const path = '/v1/exchange_ohlcv'
    const { after, extra, answers } = await countedBetween(ctx, async () => [
      await ctx.prober.get(path, { ...series.params, exchange: 'conformance-unknown-exchange' }, ctx.key, UNPACED),
      await ctx.prober.get(path, { ...series.params, base: 'CONFORMANCE-UNKNOWN' }, ctx.key, UNPACED),
      await ctx.prober.get(path, { ...series.params, limit: '0' }, ctx.key, UNPACED),
      await ctx.prober.get(path, { ...series.params, start: 'not-a-date' }, ctx.key, UNPACED),
      // Year 1 is older than any limited plan's depth: a 403 there, a 200 on an unlimited plan.
      await ctx.prober.get(path, { ...series.params, start: '0001-01-01T00:00:00Z', end: '0001-01-02T00:00:00Z', limit: '1' }, ctx.key, UNPACED),
    ])
    const errors = answers.filter((a) => a.status !== 200).length
    const counted200 = answers.length - errors
    ctx.check(extra <= counted200, about(after, `${extra - counted200} of ${errors} error answers (${answers.map((a) => a.status).join(', ')}) were counted`, `RateLimit-Remaining ${counted200 + 1} less than after the previous candle call`, `RateLimit-Remaining ${after.headers['ratelimit-remaining']}`))
  },
}
