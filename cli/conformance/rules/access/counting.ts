import type { CandleEndpointName } from '../../../../src/contract/index.js'
import type { Answer } from '../../prober.js'
import type { KeyRef } from '../../keys.js'
import { about, type Rule, type RuleContext } from '../../rule.js'
import { DECISION, IFACE, type Source } from '../../sources.js'

const UNPACED = { paced: false }

/** What a candle 200 says of the account's usage: its `RateLimit-Limit` and `RateLimit-Remaining`. */
interface Usage {
  limit: number
  remaining: number
}

/** The usage an answer's `RateLimit-*` headers state, or why they cannot be read as usage. */
function usageOf(a: Answer): Usage | string {
  const text = { limit: a.headers['ratelimit-limit'], remaining: a.headers['ratelimit-remaining'] }
  const absent = Object.entries(text).filter(([, v]) => v === undefined).map(([k]) => `RateLimit-${k[0]!.toUpperCase()}${k.slice(1)}`)
  if (absent.length > 0) return `the candle 200 has no ${absent.join(' and ')} header, so usage cannot be seen from outside (rule ratelimit-headers)`
  const [limit, remaining] = [text.limit!, text.remaining!].map((v) => (/^\d+$/.test(v.trim()) ? Number(v) : NaN)) as [number, number]
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(remaining) || limit < 1) return `RateLimit-Limit ${JSON.stringify(text.limit)} and RateLimit-Remaining ${JSON.stringify(text.remaining)} are not a count of calls (whole numbers, Limit at least 1)`
  if (remaining > limit) return `RateLimit-Remaining ${remaining} is above RateLimit-Limit ${limit}`
  return { limit, remaining }
}

/**
 * What the service counted between two candle calls, read from `RateLimit-Remaining` (the only
 * outside view of usage): after an idle second the window is empty, so a first 200 leaves
 * `Limit - 1`, and a second one `Limit - 2` plus whatever the calls in `between` were counted.
 * `between` sends its calls unpaced (a conforming service counts none of them) so that all of it
 * takes well under a second: a counted call leaves the window a second after it arrived, and would
 * then go unseen. A run slower than that is tried again (three times in all), then skipped as
 * inconclusive; so are headers that do not behave like usage (absent, not whole numbers,
 * Remaining above Limit, not at Limit - 1 after an idle second, not falling with a counted call,
 * falling by more than the calls sent): a rule passes only on evidence.
 */
async function countedBetween(ctx: RuleContext, between: () => Promise<Answer[]>, key: KeyRef | undefined = ctx.key): Promise<{ after: Answer; extra: number; answers: Answer[] }> {
  if (key === undefined) ctx.skip('no API key: give --api-key-file (or MARKET_CANDLES_API_KEY)')
  const capped = ctx.prober.pacer.tooFewFor(7)
  if (capped) ctx.skip(`${capped} (the usage of 7 calls is read from a one-second window)`)
  const endpoint: CandleEndpointName = 'exchange_ohlcv'
  const series = await ctx.facts.series(endpoint)
  const probe = () => ctx.prober.get(`/v1/${endpoint}`, { ...series.params, limit: '1' }, key, { paced: false })
  let span = 0
  for (let attempt = 0; attempt < 3; attempt++) {
    await ctx.prober.pacer.drainWindow()
    const before = await probe()
    if (before.status !== 200) ctx.skip(`${before.request} answered ${before.status}`)
    const first = usageOf(before)
    if (typeof first === 'string') ctx.inconclusive(first)
    const answers = await between()
    const after = await probe()
    if (after.status !== 200) ctx.skip(`${after.request} answered ${after.status}`)
    const second = usageOf(after)
    if (typeof second === 'string') ctx.inconclusive(second)
    await ctx.prober.pacer.drainWindow()
    span = after.receivedAt - before.sentAt
    if (span >= 900) continue
    const seen = `RateLimit-Limit ${first.limit} and RateLimit-Remaining ${first.remaining} after the first call, ${second.limit} and ${second.remaining} after the second`
    if (second.limit !== first.limit) ctx.inconclusive(`RateLimit-Limit changed between two calls within a second (${seen})`)
    if (first.remaining !== first.limit - 1) ctx.inconclusive(`after an idle second a candle call left RateLimit-Remaining ${first.remaining}, not ${first.limit - 1} (Limit - 1): another client uses the account, or the header does not track usage (${seen})`)
    if (second.remaining >= first.remaining) ctx.inconclusive(`RateLimit-Remaining did not fall with a counted call (${seen}): the header does not track usage`)
    const extra = first.remaining - 1 - second.remaining
    if (extra > answers.length) ctx.inconclusive(`RateLimit-Remaining fell by ${extra + 1}, more than the ${answers.length + 1} calls sent could be counted (${seen}): another client uses the account, or the header does not track usage`)
    return { after, extra, answers }
  }
  return ctx.inconclusive(`the calls took ${Math.round(span)} ms, too slow to read usage from a one-second window`)
}

/** Catalog calls are never counted, whatever their status, key or no key. */
export const catalogNotCounted: Rule = {
  id: 'catalog-not-counted',
  title: 'catalog calls are never counted, whatever their status',
  anchor: 'order-of-checks',
  sources: [IFACE.catalogPublic],
  async run(ctx) {
    const exchange = (await ctx.facts.exchanges())[0]?.name ?? 'unknown'
    const { after, extra } = await countedBetween(ctx, async () => [
      await ctx.prober.get('/v1/exchanges', {}, ctx.key, UNPACED),
      await ctx.prober.get('/v1/assets', {}, ctx.key, UNPACED),
      await ctx.prober.get('/v1/exchange_pairs', { exchange, interval: '1h' }, ctx.key, UNPACED),
      await ctx.prober.get('/v1/aggregated_pairs', { interval: '1h' }, ctx.key, UNPACED),
      await ctx.prober.get('/v1/exchange_pairs', { exchange: 'conformance-unknown-exchange', interval: '1h' }, ctx.key, UNPACED),
    ])
    ctx.check(IFACE.catalogPublic, extra === 0, about(after, `${extra} of 5 catalog calls (with the key) were counted`, `RateLimit-Remaining one less than after the previous candle call`, `RateLimit-Remaining ${after.headers['ratelimit-remaining']}`))
  },
}

/**
 * Only a 200 from a candle endpoint is counted. That a 422 (validation) and a 403 (permission) are
 * not is interface.md's; that a 404 is not is the reference's (D3). Each is read in its own window,
 * so a counted 404 is a difference and a counted 422 or 403 a failure.
 */
export const errorsNotCounted: Rule = {
  id: 'errors-not-counted',
  title: 'only a 200 from a candle endpoint is counted: a 422 or a 403 never is; the reference counts no 404 either',
  anchor: 'order-of-checks',
  sources: [IFACE.checkedBeforeLogged, IFACE.rejectedNotCounted, DECISION.D3],
  async run(ctx) {
    const series = await ctx.facts.series('exchange_ohlcv')
    const path = '/v1/exchange_ohlcv'
    // A 403 needs a plan with a history depth: a free or pro key when given (usage is per account, so its own window).
    const limited = ctx.planKeys.get('free') ?? ctx.planKeys.get('pro') ?? ctx.key
    const batches: Array<[Source, string, Array<() => Promise<Answer>>, KeyRef | undefined]> = [
      [IFACE.checkedBeforeLogged, 'invalid parameters', [
        () => ctx.prober.get(path, { ...series.params, limit: '0' }, ctx.key, UNPACED),
        () => ctx.prober.get(path, { ...series.params, start: 'not-a-date' }, ctx.key, UNPACED),
      ], ctx.key],
      // Year 1 is older than any limited plan's depth: a 403 there, a 200 on an unlimited plan.
      [IFACE.rejectedNotCounted, 'a start beyond the history depth', [() => ctx.prober.get(path, { ...series.params, start: '0001-01-01T00:00:00Z', end: '0001-01-02T00:00:00Z', limit: '1' }, limited, UNPACED)], limited],
      [DECISION.D3, 'values that do not resolve', [
        () => ctx.prober.get(path, { ...series.params, exchange: 'conformance-unknown-exchange' }, ctx.key, UNPACED),
        () => ctx.prober.get(path, { ...series.params, base: 'CONFORMANCE-UNKNOWN' }, ctx.key, UNPACED),
      ], ctx.key],
    ]
    for (const [source, what, calls, key] of batches) {
      // One after another: the window reads them in order.
      const { after, extra, answers } = await countedBetween(ctx, async () => {
        const out: Answer[] = []
        for (const call of calls) out.push(await call())
        return out
      }, key)
      const errors = answers.filter((a) => a.status !== 200).length
      const counted200 = answers.length - errors
      ctx.evidence(`${what}: ${answers.map((a) => a.status).join(', ')}; counted ${extra} (${counted200} of them 200s)`)
      ctx.check(source, extra <= counted200, about(after, `${extra - counted200} of ${errors} error answers to ${what} (${answers.map((a) => a.status).join(', ')}) were counted`, `RateLimit-Remaining ${counted200 + 1} less than after the previous candle call`, `RateLimit-Remaining ${after.headers['ratelimit-remaining']}`))
    }
  },
}
