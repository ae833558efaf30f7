import { setTimeout as sleep } from 'node:timers/promises'
import type { Answer } from '../../prober.js'
import { about, type Rule } from '../../rule.js'
import { DECISION, IFACE } from '../../sources.js'
import { candlePages } from '../shared/candle-pages.js'

const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const
const int = (a: Answer, name: string) => (/^\d+$/.test(a.headers[name] ?? '') ? Number(a.headers[name]) : undefined)

/**
 * The shortest time in which `count` of `answers` were certainly all seen by the service (each
 * arrived between its send and its receipt), when that is under a second; else undefined. A slow
 * machine or network spreads a burst out, and a sliding window then rightly lets more through.
 */
function provenWithinOneSecond(answers: readonly Answer[], count: number): number | undefined {
  let best = Infinity
  for (const first of answers) {
    const after = answers.filter((a) => a.sentAt >= first.sentAt).map((a) => a.receivedAt).sort((x, y) => x - y)
    if (after.length >= count) best = Math.min(best, after[count - 1]! - first.sentAt)
  }
  return best < 1000 ? Math.round(best) : undefined
}

/** Every 200 of a candle endpoint carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. */
export const rateLimitHeaders: Rule = {
  id: 'ratelimit-headers',
  title: 'every 200 of a candle endpoint carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (Reset at least 1)',
  anchor: 'rate-limit',
  sources: [DECISION.D7],
  afterOthers: true,
  async run(ctx) {
    const candle200 = () => ctx.prober.answers.filter((a) => a.status === 200 && /^\/v1\/(exchange|aggregated)_ohlcv$/.test(a.path))
    // Run alone (`--only`), the run has no candle page yet: fetch the newest of each, as the data rules do.
    if (candle200().length === 0) await candlePages(ctx).catch(() => undefined)
    const pages = candle200()
    if (pages.length === 0) ctx.skip('no candle 200 was received (no key, or every request was refused)')
    let shown = 0
    for (const a of pages) {
      const [limit, remaining, reset] = RATE_HEADERS.map((h) => int(a, h))
      const ok = limit !== undefined && remaining !== undefined && reset !== undefined && remaining <= limit && reset >= 1
      if (!ok && shown++ < 3) ctx.check(DECISION.D7, false, about(a, 'a candle 200 without valid RateLimit-* headers', 'RateLimit-Limit, RateLimit-Remaining <= Limit, RateLimit-Reset >= 1', RATE_HEADERS.map((h) => `${h}: ${a.headers[h] ?? '(absent)'}`).join('; ')))
    }
  },
}

/**
 * Over 10 counted requests a second the service refuses (interface.md: the rate is 10 a second); the
 * reference answers 429 with Retry-After and the RateLimit-* headers, and a 429 does not use up the window (D7).
 */
export const rateLimit: Rule = {
  id: 'rate-limit',
  title: 'over 10 counted requests per second are not all answered; the reference: 429 with Retry-After and RateLimit-* (Reset equal to Retry-After), a 429 does not use up the window',
  anchor: 'rate-limit',
  sources: [IFACE.rate, DECISION.D7],
  optIn: true,
  async run(ctx) {
    if (ctx.key === undefined) ctx.skip('no API key: give --api-key-file')
    const capped = ctx.prober.pacer.tooFewFor(11)
    if (capped) ctx.skip(`${capped} (11 counted calls are what it takes to pass the limit)`)
    const series = await ctx.facts.series('exchange_ohlcv')
    await ctx.prober.pacer.drainWindow()
    const burst = await Promise.all(Array.from({ length: 20 }, () => ctx.prober.get(`/v1/exchange_ohlcv`, { ...series.params, limit: '1' }, ctx.key, { paced: false })))
    const limited = burst.filter((a) => a.status !== 200)
    const crowded = provenWithinOneSecond(burst.filter((a) => a.status === 200), 11)
    ctx.check(IFACE.rate, crowded === undefined, { message: 'more than 10 counted requests were answered 200 within one second', request: burst[0]!.request, expected: 'at most 10 answers 200 in any second, the rest 429', actual: `${crowded} ms for 11 answers 200; statuses ${burst.map((a) => a.status).join(', ')}` })
    const span = Math.max(...burst.map((a) => a.receivedAt)) - Math.min(...burst.map((a) => a.sentAt))
    if (limited.length === 0) ctx.inconclusive(`the burst took ${Math.round(span)} ms, too slow to reach the limit from here (every answer 200, none provably in one second)`)
    for (const a of limited.slice(0, 1)) {
      const detail = (a.body as { detail?: unknown } | undefined)?.detail
      const retry = int(a, 'retry-after')
      const [limit, remaining, reset] = RATE_HEADERS.map((h) => int(a, h))
      ctx.check(DECISION.D7, a.status === 429 && typeof detail === 'string' && retry !== undefined && retry >= 1 && limit !== undefined && remaining !== undefined && reset === retry, about(a, 'a 429 without its headers', '429 {"detail": ...} with Retry-After >= 1, RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset equal to Retry-After', `Retry-After: ${a.headers['retry-after'] ?? '(absent)'}; ${RATE_HEADERS.map((h) => `${h}: ${a.headers[h] ?? '(absent)'}`).join('; ')}`))
    }
    const wait = Math.min(int(limited[0] ?? burst[0]!, 'retry-after') ?? 1, 5)
    await sleep(wait * 1000 + 100)
    const after = await ctx.prober.get(`/v1/exchange_ohlcv`, { ...series.params, limit: '1' }, ctx.key, { paced: false })
    ctx.check(DECISION.D7, after.status === 200, about(after, 'after Retry-After seconds the account is still limited: the 429s used up the window', '200'))
    await ctx.prober.pacer.drainWindow()
  },
}
