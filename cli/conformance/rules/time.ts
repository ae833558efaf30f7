import { iso } from '../facts.js'
import { about, type Rule } from '../rule.js'
import { eachEndpoint } from './each-endpoint.js'

/** `t` shifted by `sign` times the smallest step of `digits` fractional digits, written with exactly those digits. */
function shifted(t: number, digits: number, sign: 1 | -1): string {
  const second = Math.floor(t / 1000) * 1000
  // t is a whole second on every interval the service has; the step is 10^-digits s.
  const base = sign === 1 ? second : second - 1000
  const fraction = sign === 1 ? `${'0'.repeat(digits - 1)}1` : '9'.repeat(digits)
  return `${iso(base).slice(0, 19)}.${fraction}Z`
}

/** Bounds compare as exact instants, sub-millisecond digits included, with 1 to 9 fractional digits. */
export const fractionalBounds: Rule = {
  id: 'fractional-bounds',
  title: 'bounds compare as exact instants, sub-millisecond digits included: a bound never admits a candle outside it (1 to 9 fractional digits)',
  anchor: 'time',
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const t = w[10]!
      for (let digits = 1; digits <= 9; digits++) {
        const after = shifted(t, digits, 1)
        const fromAfter = await ctx.facts.page(series, { start: after, limit: '1' })
        ctx.check(fromAfter.closes[0] === w[11], about(fromAfter.answer, `start ${after} admits the candle at ${iso(t)}`, `first close_ts ${iso(w[11]!)}`, fromAfter.closes.map(iso).join(', ')))
        const before = shifted(t, digits, -1)
        const upToBefore = await ctx.facts.page(series, { start: iso(w[8]! - 1), end: before })
        ctx.check(upToBefore.closes.at(-1) === w[9], about(upToBefore.answer, `end ${before} admits the candle at ${iso(t)}`, `last close_ts ${iso(w[9]!)}`, upToBefore.closes.map(iso).join(', ')))
      }
      const tooLate = await ctx.facts.page(series, { start: shifted(t, 9, 1), end: iso(t) })
      ctx.check(tooLate.status === 422, about(tooLate.answer, 'a start one nanosecond after end is not refused', '422 value_error at end'))
    })
  },
}
