import type { Answer } from '../../prober.js'
import { about, type Rule } from '../../rule.js'
import { DECISION, IFACE, type Source } from '../../sources.js'
import { HOUR, iso } from '../../facts.js'
import { instantOf } from '../../instant.js'

interface Issue {
  type?: unknown
  loc?: unknown
  msg?: unknown
  input?: unknown
  ctx?: unknown
}

const issuesOf = (a: Answer): Issue[] | undefined => {
  const detail = (a.body as { detail?: unknown } | undefined)?.detail
  return Array.isArray(detail) ? (detail as Issue[]) : undefined
}

const issueFor = (a: Answer, param: string) => issuesOf(a)?.find((i) => Array.isArray(i.loc) && i.loc[0] === 'query' && i.loc[1] === param)

/** Every issue: `type`, `loc: ["query", param]`, `msg`, `input`. */
const wellFormed = (i: Issue) => typeof i.type === 'string' && Array.isArray(i.loc) && i.loc.length === 2 && typeof i.msg === 'string' && 'input' in i

/** How a request with bad parameters must be refused: exactly 422 (interface.md says so), or any 4xx (the 422 is D3's). */
interface Refusal {
  source: Source
  exact: boolean
}

/**
 * A required parameter left out is a 422 on the catalog (interface.md); on the candle endpoints a
 * request without a required parameter, or with a value that is not its type, is refused, and the
 * reference answers 422 (D3). The body, one issue per bad parameter, all at once, is D1's.
 */
export const validation422: Rule = {
  id: 'validation-422',
  title: 'a required parameter left out is a 422 on the catalog, refused on the candle endpoints; the reference: 422 whose detail is an array with one issue per bad parameter, all at once (type, loc, msg, input)',
  anchor: 'error-bodies',
  sources: [IFACE.catalog422, IFACE.required, IFACE.limit, DECISION.D3, DECISION.D1],
  async run(ctx) {
    const series = await ctx.facts.series('exchange_ohlcv')
    const exchange = series.params.exchange!
    const expect = async (path: string, query: Record<string, string | string[]>, wanted: Array<{ param: string; type: string; input: unknown }>, useKey: boolean, refusal: Refusal) => {
      const a = await ctx.prober.get(path, query, useKey ? ctx.key : undefined)
      const expected = `422 with ${wanted.map((w) => `${w.type} at ${w.param} (input ${JSON.stringify(w.input)})`).join(', ')}`
      if (refusal.exact) {
        if (!ctx.check(refusal.source, a.status === 422, about(a, 'not a 422', '422'))) return
      } else {
        if (!ctx.check(refusal.source, a.status >= 400 && a.status < 500, about(a, 'bad parameters are not refused', 'a 4xx (the reference: 422)'))) return
        if (!ctx.check(DECISION.D3, a.status === 422, about(a, 'bad parameters are refused, but not with 422', '422'))) return
      }
      const issues = issuesOf(a)
      if (!ctx.check(DECISION.D1, issues !== undefined, about(a, 'a 422 without a detail array', expected))) return
      ctx.check(DECISION.D1, issues!.every(wellFormed), about(a, 'an issue lacks type, loc, msg or input', 'every issue {type, loc: ["query", param], msg, input}'))
      for (const w of wanted) {
        const issue = issueFor(a, w.param)
        ctx.check(DECISION.D1, issue !== undefined && issue.type === w.type && JSON.stringify(issue.input ?? null) === JSON.stringify(w.input), about(a, `no ${w.type} issue for ${w.param}`, expected))
      }
    }
    const candles = '/v1/exchange_ohlcv'
    const refused = (source: Source): Refusal => ({ source, exact: false })
    const exactly = (source: Source): Refusal => ({ source, exact: true })
    if (ctx.key !== undefined) {
      await expect(candles, {}, ['exchange', 'interval', 'base', 'quote'].map((param) => ({ param, type: 'missing', input: null })), true, refused(IFACE.required))
      await expect(candles, { ...series.params, exchange: '', limit: 'abc', start: 'yesterday' }, [
        { param: 'exchange', type: 'missing', input: '' },
        { param: 'limit', type: 'int_parsing', input: 'abc' },
        { param: 'start', type: 'datetime_from_date_parsing', input: 'yesterday' },
      ], true, refused(IFACE.limit))
      await expect(candles, { ...series.params, start: '2024-05-02T00:00:00Z', end: '2024-05-01T00:00:00Z' }, [{ param: 'end', type: 'value_error', input: '2024-05-01T00:00:00Z' }], true, exactly(DECISION.D3))
      await expect(candles, { ...series.params, limit: ['5', '6'] }, [{ param: 'limit', type: 'value_error', input: ['5', '6'] }], true, exactly(DECISION.D3))
    }
    await expect('/v1/exchange_pairs', { interval: '1h' }, [{ param: 'exchange', type: 'missing', input: null }], false, exactly(IFACE.catalog422))
    await expect('/v1/exchange_pairs', { exchange, interval: ['1h', '1d'] }, [{ param: 'interval', type: 'value_error', input: ['1h', '1d'] }], false, exactly(DECISION.D3))
    await expect('/v1/aggregated_pairs', {}, [{ param: 'interval', type: 'missing', input: null }], false, exactly(IFACE.catalog422))
  },
}

/** `limit` is a true row limit, 1 to 1000: 0 and 1001 are 422s with their bound in ctx. */
export const limitBounds: Rule = {
  id: 'limit-bounds',
  title: '`limit` is a true row limit, 1 to 1000: 0 and 1001 are refused; the reference: 422 greater_than_equal {ge: 1}, less_than_equal {le: 1000}',
  anchor: 'limits',
  sources: [IFACE.limit, DECISION.D3, DECISION.D1],
  async run(ctx) {
    const series = await ctx.facts.series('exchange_ohlcv')
    const window = await ctx.facts.window('exchange_ohlcv')
    for (const [limit, type, bound] of [['0', 'greater_than_equal', { ge: 1 }], ['1001', 'less_than_equal', { le: 1000 }]] as const) {
      const page = await ctx.facts.page(series, { limit })
      const issue = issueFor(page.answer, 'limit')
      if (!ctx.check(IFACE.limit, page.status >= 400 && page.status < 500, about(page.answer, `limit=${limit}, outside 1 to 1000, is not refused`, 'a 4xx (the reference: 422)', `${page.status} with ${page.closes.length} candles`))) continue
      if (!ctx.check(DECISION.D3, page.status === 422, about(page.answer, `limit=${limit} is refused, but not with 422`, '422'))) continue
      ctx.check(DECISION.D1, issue?.type === type && JSON.stringify(issue.ctx) === JSON.stringify(bound), about(page.answer, `limit=${limit} is not refused with its bound`, `422 ${type} at limit, ctx ${JSON.stringify(bound)}`))
    }
    const one = await ctx.facts.page(series, { start: iso(window[0]!), limit: '1' })
    ctx.check(IFACE.limit, one.status === 200 && one.closes.length === 1, about(one.answer, 'limit=1 is not one row', '200 with exactly 1 candle'))
    // 1000 rows: three days of 1m candles hold them, when the key's plan includes 1m.
    const minute = await ctx.facts.series('exchange_ohlcv', '1m').catch(() => undefined)
    if (minute) {
      const from = instantOf(minute.coverage.last_close_ts) - 72 * HOUR - 30_000
      if (from > instantOf(minute.coverage.first_close_ts)) {
        const page = await ctx.facts.page(minute, { start: iso(from), limit: '1000' }).catch(() => undefined)
        if (page) ctx.check(IFACE.limit, page.status === 200 && page.closes.length === 1000, about(page.answer, 'limit=1000 over three days of 1m candles is not 1000 rows', '200 with exactly 1000 candles', `${page.status} with ${page.closes.length} candles`))
      }
    }
  },
}

/** `limit` defaults to 500. */
export const defaultLimit: Rule = {
  id: 'default-limit',
  title: 'limit: default 500',
  anchor: 'limits',
  sources: [IFACE.limit],
  async run(ctx) {
    const series = await ctx.facts.series('exchange_ohlcv')
    const span = instantOf(series.coverage.last_close_ts) - instantOf(series.coverage.first_close_ts)
    if (span < 600 * HOUR) ctx.skip(`the series ${JSON.stringify(series.params)} holds fewer than 600 hours`)
    const page = await ctx.facts.page(series, {})
    ctx.check(IFACE.limit, page.status === 200 && page.closes.length === 500, about(page.answer, 'without limit, the page is not 500 candles', '200 with 500 candles', `${page.status} with ${page.closes.length} candles`))
  },
}
