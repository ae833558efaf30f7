import type { Answer } from '../../prober.js'
import { HOUR, iso } from '../../facts.js'
import { instantOf } from '../../instant.js'
import { about, type Rule } from '../../rule.js'
import { IFACE, type Source } from '../../sources.js'
import { eachEndpoint } from '../shared/each-endpoint.js'

const list = (closes: readonly number[]) => (closes.length === 0 ? '[]' : closes.map(iso).join(', '))
const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((t, i) => t === b[i])

/** Candle arrays are ascending by close_ts: every candle 200 of the run. */
export const ascending: Rule = {
  id: 'ascending',
  title: 'candle arrays are ascending by close_ts',
  anchor: 'endpoints',
  sources: [IFACE.ascending],
  afterOthers: true,
  async run(ctx) {
    const pages = ctx.prober.answers.filter((a) => a.status === 200 && /^\/v1\/(exchange|aggregated)_ohlcv$/.test(a.path) && Array.isArray(a.body))
    if (pages.length === 0) ctx.skip('no candle page was received (no key, or every request was refused)')
    let shown = 0
    for (const a of pages) {
      const closes = (a.body as Array<{ close_ts?: string }>).map((c) => instantOf(c?.close_ts))
      const ok = closes.every((t, i) => i === 0 || closes[i - 1]! < t)
      if (!ok && shown++ < 3) ctx.check(IFACE.ascending, false, about(a, 'a candle array is not strictly ascending by close_ts', 'close_ts strictly ascending', list(closes).slice(0, 300)))
    }
  },
}

/** With `start`, the page is the first `limit` candles with close_ts >= start. */
export const startAnchor: Rule = {
  id: 'start-anchor',
  title: 'with start, the page is the first limit candles with close_ts >= start',
  anchor: 'paging',
  sources: [IFACE.paging1],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const start = w[5]! - HOUR / 2
      const page = await ctx.facts.page(series, { start: iso(start), limit: '5' })
      ctx.check(IFACE.paging1, same(page.closes, w.slice(5, 10)), about(page.answer, `the page from start ${iso(start)} is not the first 5 candles at or after it`, list(w.slice(5, 10)), list(page.closes)))
      const longer = await ctx.facts.page(series, { start: iso(start), limit: '8' })
      ctx.check(IFACE.paging1, same(longer.closes.slice(0, 5), page.closes), about(longer.answer, 'limit 8 from the same start does not begin with the limit-5 page', `begins with ${list(page.closes)}`, list(longer.closes)))
      if (page.closes.length > 0) {
        const before = await ctx.facts.page(series, { end: iso(page.closes[0]! - 1), limit: '1' })
        ctx.check(IFACE.paging1, before.closes.every((t) => t < start), about(before.answer, 'a candle at or after start lies before the page', `nothing in [${iso(start)}, ${iso(page.closes[0]!)})`, list(before.closes)))
      }
    })
  },
}

/** `end` only caps how far forward a page reaches; it never moves the anchor. */
export const startAnchorWithEnd: Rule = {
  id: 'start-anchor-with-end',
  title: 'with start and end, and more than limit candles between them, the page still starts at start: end never moves the anchor',
  anchor: 'paging',
  sources: [IFACE.paging1],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const start = w[5]! - HOUR / 2
      const page = await ctx.facts.page(series, { start: iso(start), end: iso(w[20]!), limit: '5' })
      ctx.check(IFACE.paging1, same(page.closes, w.slice(5, 10)), about(page.answer, `with end ${iso(w[20]!)} set, the page no longer starts at start`, list(w.slice(5, 10)), list(page.closes)))
    })
  },
}

/** Without `start`: the most recent `limit` candles up to the latest available, ascending. */
export const latestPage: Rule = {
  id: 'latest-page',
  title: 'without start, the page is the most recent limit candles up to the latest available',
  anchor: 'paging',
  sources: [IFACE.paging2, IFACE.end],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      // A live service may close a candle between two calls: one retry.
      for (let attempt = 0; attempt < 2; attempt++) {
        const page = await ctx.facts.page(series, { limit: '5' })
        const newest = await ctx.facts.page(series, { limit: '1' })
        const last = page.closes.at(-1)
        if (attempt === 0 && newest.closes[0] !== last) continue
        ctx.check(IFACE.paging2, page.closes.length === 5 && newest.closes[0] === last, about(page.answer, 'the page without start does not end at the newest candle', `5 candles ending at the newest one (${newest.closes[0] === undefined ? 'none' : iso(newest.closes[0])})`, list(page.closes)))
        if (last === undefined) return
        const after = await ctx.facts.page(series, { start: iso(last + 1), limit: '1' })
        const recent = after.closes.every((t) => t > Date.now() - 2 * HOUR)
        ctx.check(IFACE.end, after.closes.length === 0 || recent, about(after.answer, 'a candle exists after the page without start', '[] (or a candle that closed since)', list(after.closes)))
        const again = await ctx.facts.page(series, { start: iso(page.closes[0]! - 1), limit: '5' })
        ctx.check(IFACE.paging2, same(again.closes, page.closes), about(again.answer, 'the page without start is not the last 5 consecutive candles', list(page.closes), list(again.closes)))
        return
      }
    })
  },
}

/** Without `start`, `end` is inclusive too: the page is the newest `limit` candles with close_ts <= end. */
export const endWithoutStart: Rule = {
  id: 'end-without-start',
  title: 'without start, end is inclusive: the page is the newest limit candles with close_ts <= end, and end just before a close_ts leaves that candle out',
  anchor: 'paging',
  sources: [IFACE.end, IFACE.paging2],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const t = w[10]!
      const cases: Array<[number, number[]]> = [
        [t, w.slice(8, 11)],
        [t - 1, w.slice(7, 10)],
      ]
      for (const [end, expected] of cases) {
        const page = await ctx.facts.page(series, { end: iso(end), limit: '3' })
        ctx.evidence(`${endpoint}: end ${iso(end)}, limit 3 -> ${list(page.closes)}`)
        ctx.check(end === t ? IFACE.end : IFACE.paging2, same(page.closes, expected), about(page.answer, `the page up to end ${iso(end)} (no start) is not the newest 3 candles at or before it`, list(expected), list(page.closes)))
      }
    })
  },
}

/** Bounds are inclusive; "just after" is +1 ms and "just before" is -1 ms. */
export const inclusiveBounds: Rule = {
  id: 'inclusive-bounds',
  title: 'start keeps close_ts >= start and end keeps close_ts <= end (inclusive); just after is +1 ms, just before is -1 ms',
  anchor: 'paging',
  sources: [IFACE.start, IFACE.end],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const t = w[10]!
      const cases: Array<[Record<string, string>, number[], Source]> = [
        [{ start: iso(t), end: iso(w[12]!) }, w.slice(10, 13), IFACE.start],
        [{ start: iso(t + 1), end: iso(w[12]!) }, w.slice(11, 13), IFACE.start],
        [{ start: iso(w[8]!), end: iso(t - 1) }, w.slice(8, 10), IFACE.end],
        [{ start: iso(t), end: iso(t) }, [t], IFACE.end],
      ]
      for (const [query, expected, source] of cases) {
        const page = await ctx.facts.page(series, query)
        ctx.check(source, same(page.closes, expected), about(page.answer, `bounds ${query.start} .. ${query.end} are not applied inclusively`, list(expected), list(page.closes)))
      }
    })
  },
}

/**
 * Paging one window forward (start just after the last close_ts) gives the window's candles
 * (paging rule 1), and backward (end just before the earliest) gives the same candles (rule 2).
 */
export const forwardBackward: Rule = {
  id: 'forward-backward',
  title: 'paging one window forward (start just after the last close_ts) and backward (end just before the earliest) gives the same candles',
  anchor: 'paging',
  sources: [IFACE.paging1, IFACE.paging2],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const w = await ctx.facts.window(endpoint)
      const from = w[3]! - HOUR / 2
      const to = w[16]! + HOUR / 2
      const expected = w.filter((t) => t >= from && t <= to)
      const forward = new Map<number, string>()
      let start = from
      let lastForward: Answer | undefined
      for (let i = 0; i < 6; i++) {
        const page = await ctx.facts.page(series, { start: iso(start), limit: '5' })
        lastForward = page.answer
        page.closes.forEach((t, j) => t <= to && forward.set(t, page.candles[j]!))
        if (page.closes.length === 0 || page.closes.at(-1)! > to) break
        start = page.closes.at(-1)! + 1
      }
      const backward = new Map<number, string>()
      let end = to
      let lastBackward: Answer | undefined
      for (let i = 0; i < 6; i++) {
        const page = await ctx.facts.page(series, { end: iso(end), limit: '5' })
        lastBackward = page.answer
        page.closes.forEach((t, j) => t >= from && backward.set(t, page.candles[j]!))
        if (page.closes.length === 0 || page.closes[0]! < from) break
        end = page.closes[0]! - 1
      }
      const f = [...forward.keys()].sort((a, b) => a - b)
      const b = [...backward.keys()].sort((a, b) => a - b)
      ctx.check(IFACE.paging1, same(f, expected), { message: `the forward walk over ${iso(from)} .. ${iso(to)} (limit 5, start just after each last close_ts) misses or adds candles`, request: lastForward?.request, expected: list(expected), actual: list(f) })
      const equal = same(f, b) && f.every((t) => forward.get(t) === backward.get(t))
      ctx.check(IFACE.paging2, equal, { message: `forward and backward walks over ${iso(from)} .. ${iso(to)} (limit 5) differ`, request: lastBackward?.request, expected: `forward: ${list(f)}`, actual: `backward: ${list(b)}${same(f, b) ? ' (same close_ts, different candles)' : ''}` })
    })
  },
}
