import { badExchanges, negativeVolume, offGrid, ohlcOutOfOrder, unknownContributors } from '../../candle-invariants.js'
import { about, type Rule, type RuleContext } from '../../rule.js'
import { DECISION, IFACE, type Source } from '../../sources.js'
import { candlePages, type CandlePage } from '../shared/candle-pages.js'

/**
 * Applies `problem` to every candle of `pages` and records each distinct candle that breaks it,
 * with the request that got it, what was expected and the source of the check for that page.
 */
function checkCandles(ctx: RuleContext, pages: readonly CandlePage[], source: (page: CandlePage) => Source, message: (page: CandlePage) => string, problem: (candle: Record<string, unknown>, page: CandlePage) => string | undefined): void {
  const reported = new Set<string>()
  for (const page of pages) {
    for (const candle of page.candles) {
      const expected = problem(candle, page)
      if (expected === undefined) continue
      const text = JSON.stringify(candle)
      if (reported.has(text)) continue
      reported.add(text)
      ctx.check(source(page), false, about(page.answer, message(page), expected, text))
    }
  }
}

/** An exchange candle's prices and volumes are what OHLCV means (interface.md); an aggregated one's are D9's arithmetic. */
const ohlcvSource = (page: CandlePage): Source => (page.answer.path === '/v1/aggregated_ohlcv' ? DECISION.D9 : IFACE.ohlcv)

/** `close_ts` is the end boundary of the candle's interval: on that interval's grid (D5). */
export const closeOnGrid: Rule = {
  id: 'close-on-grid',
  title: "close_ts is the end boundary of the candle's interval: whole minutes (1m), whole hours (1h), 00:00:00Z (1d)",
  anchor: 'candle-data',
  sources: [DECISION.D5],
  afterOthers: true,
  async run(ctx) {
    checkCandles(ctx, await candlePages(ctx), () => DECISION.D5, (p) => `a ${p.interval} candle closes off the ${p.interval} grid`, (c, p) => offGrid(c, p.interval))
  },
}

/** `low <= open, close <= high`. */
export const ohlcOrder: Rule = {
  id: 'ohlc-order',
  title: 'every candle keeps low <= open <= high and low <= close <= high',
  anchor: 'candle-data',
  sources: [IFACE.ohlcv, DECISION.D9],
  afterOthers: true,
  async run(ctx) {
    checkCandles(ctx, await candlePages(ctx), ohlcvSource, () => 'a candle breaks low <= open, close <= high', ohlcOutOfOrder)
  },
}

/** Volumes are never negative. */
export const volumesNonNegative: Rule = {
  id: 'volumes-non-negative',
  title: 'every candle has base_volume >= 0 and quote_volume >= 0',
  anchor: 'candle-data',
  sources: [IFACE.ohlcv, DECISION.D9],
  afterOthers: true,
  async run(ctx) {
    checkCandles(ctx, await candlePages(ctx), ohlcvSource, () => 'a candle has a negative volume', negativeVolume)
  },
}

/** An aggregated candle lists its contributors: exchanges the catalog lists (interface.md); at least one, ascending (D9). */
export const aggregatedExchanges: Rule = {
  id: 'aggregated-exchanges',
  title: "an aggregated candle's exchanges are its contributors, each listed by /v1/exchanges; the reference: at least one, ascending",
  anchor: 'candle-data',
  sources: [IFACE.contributors, DECISION.D9],
  afterOthers: true,
  async run(ctx) {
    const pages = await candlePages(ctx, ['aggregated_ohlcv'])
    const known = new Set((await ctx.facts.exchanges()).map((e) => e.name))
    checkCandles(ctx, pages, () => IFACE.contributors, () => "an aggregated candle names an exchange /v1/exchanges does not list", (c) => unknownContributors(c, known))
    checkCandles(ctx, pages, () => DECISION.D9, () => "an aggregated candle's exchanges are not at least one, ascending, each once", (c) => badExchanges(c))
  },
}
