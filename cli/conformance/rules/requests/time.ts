import { iso } from '../../facts.js'
import { about, type Rule } from '../../rule.js'
import { DECISION, IFACE } from '../../sources.js'
import { eachEndpoint } from '../shared/each-endpoint.js'

/** `t` shifted by `sign` times the smallest step of `digits` fractional digits, written with exactly those digits. */
function shifted(t: number, digits: number, sign: 1 | -1): string {
  const second = Math.floor(t / 1000) * 1000
  // t is a whole second on every interval the service has; the step is 10^-digits s.
  const base = sign === 1 ? second : second - 1000
  const fraction = sign === 1 ? `${'0'.repeat(digits - 1)}1` : '9'.repeat(digits)
  return `${iso(base).slice(0, 19)}.${fraction}Z`
}

const shown = (closes: readonly number[]) => closes.map(iso).join(', ') || '[]'

/**
 * Bounds compare as exact instants, sub-millisecond digits included (interface.md: only candles with
 * close_ts >= start, <= end). A start one nanosecond after end is a 422 in the reference (D3).
 */
export const fractionalBounds: Rule = {
  id: 'fractional-bounds',
  title: 'bounds compare as exact instants, sub-millisecond digits included: a bound never admits a candle outside it (1 to 9 fractional digits)',
  anchor: 'time',
  sources: [IFACE.start, IFACE.end, DECISION.D3],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const t = w[10]!
      for (let digits = 1; digits <= 9; digits++) {
        const after = shifted(t, digits, 1)
        const fromAfter = await ctx.facts.page(series, { start: after, limit: '1' })
        ctx.check(IFACE.start, fromAfter.closes[0] === w[11], about(fromAfter.answer, `start ${after} admits the candle at ${iso(t)}`, `first close_ts ${iso(w[11]!)}`, shown(fromAfter.closes)))
        if (digits === 7) ctx.evidence(`${endpoint}: start ${after} -> first close_ts ${shown(fromAfter.closes)} (the candle at ${iso(t)} lies outside it)`)
        const before = shifted(t, digits, -1)
        const upToBefore = await ctx.facts.page(series, { start: iso(w[8]! - 1), end: before })
        ctx.check(IFACE.end, upToBefore.closes.at(-1) === w[9], about(upToBefore.answer, `end ${before} admits the candle at ${iso(t)}`, `last close_ts ${iso(w[9]!)}`, shown(upToBefore.closes)))
      }
      const tooLate = await ctx.facts.page(series, { start: shifted(t, 9, 1), end: iso(t) })
      // interface.md: no candle lies in an empty range; the reference refuses it (D3).
      ctx.check(IFACE.start, tooLate.status !== 200 || tooLate.closes.length === 0, about(tooLate.answer, 'a start one nanosecond after end admits a candle', 'no candle (the reference: 422)', shown(tooLate.closes)))
      ctx.check(DECISION.D3, tooLate.status === 422, about(tooLate.answer, 'a start one nanosecond after end is not refused', '422 value_error at end'))
    })
  },
}

/** `t` written as the local time of the UTC offset `minutes` (`+02:00`, `-05:00`, `+05:30`), milliseconds kept. */
export function withOffset(t: number, minutes: number): string {
  const local = new Date(t + minutes * 60_000).toISOString()
  const text = local.slice(20, 23) === '000' ? local.slice(0, 19) : local.slice(0, 23)
  const a = Math.abs(minutes)
  return `${text}${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`
}

/**
 * `start` and `end` with a numeric offset are compared as the instant they denote (interface.md:
 * datetime, ISO 8601; only candles with close_ts >= start / <= end).
 */
export const offsetBounds: Rule = {
  id: 'offset-bounds',
  title: 'start and end with a numeric UTC offset (+02:00, -05:00, +05:30) are compared as the instant they denote',
  anchor: 'time',
  sources: [IFACE.datetime, IFACE.start, IFACE.end],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const t = w[10]!
      const cases: Array<['start' | 'end', number, number, number]> = [
        // [bound, instant, offset in minutes, the close_ts expected at the page's edge]
        ['start', t, 120, t],
        ['start', t + 1, -300, w[11]!],
        ['end', t, 330, t],
        ['end', t - 1, -180, w[9]!],
      ]
      for (const [bound, instant, offset, edge] of cases) {
        const text = withOffset(instant, offset)
        const query = bound === 'start' ? { start: text, limit: '2' } : { start: iso(w[7]!), end: text }
        const page = await ctx.facts.page(series, query)
        if (!ctx.check(IFACE.datetime, page.status === 200, about(page.answer, `${bound} ${text}, an ISO 8601 datetime with an offset, is refused`, '200'))) continue
        const seen = bound === 'start' ? page.closes[0] : page.closes.at(-1)
        ctx.evidence(`${endpoint}: ${bound} ${text} (= ${iso(instant)}) -> ${bound === 'start' ? 'first' : 'last'} close_ts ${seen === undefined ? 'none' : iso(seen)}`)
        ctx.check(bound === 'start' ? IFACE.start : IFACE.end, seen === edge, about(page.answer, `${bound} ${text} is not compared as ${iso(instant)}`, `${bound === 'start' ? 'first' : 'last'} close_ts ${iso(edge)}`, shown(page.closes)))
      }
    })
  },
}
