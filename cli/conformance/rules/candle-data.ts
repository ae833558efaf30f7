import { badExchanges, negativeVolume, offGrid, ohlcOutOfOrder } from '../candle-invariants.js'
import { about, type Rule, type RuleContext } from '../rule.js'
import { candlePages, type CandlePage } from './candle-pages.js'

/**
 * Applies `problem` to every candle of `pages` and records each distinct candle that breaks it,
 * with the request that got it and what was expected.
 */
function checkCandles(ctx: RuleContext, pages: readonly CandlePage[], message: (page: CandlePage) => string, problem: (candle: Record<string, unknown>, page: CandlePage) => string | undefined): void {
  const reported = new Set<string>()
  for (const page of pages) {
    for (const candle of page.candles) {
      const expected = problem(candle, page)
      if (expected === undefined) continue
      const text = JSON.stringify(candle)
      if (reported.has(text)) continue
      reported.add(text)
      ctx.check(false, about(page.answer, message(page), expected, text))
    }
  }
}

/** `close_ts` is the end boundary of the candle's interval: on that interval's grid. */
export const closeOnGrid: Rule = {
  id: 'close-on-grid',
  title: "close_ts is the end boundary of the candle's interval: whole minutes (1m), whole hours (1h), 00:00:00Z (1d)",
  anchor: 'candle-data',
  afterOthers: true,
  async run(ctx) {
    checkCandles(ctx, await candlePages(ctx), (p) => `a ${p.interval} candle closes off the ${p.interval} grid`, (c, p) => offGrid(c, p.interval))
  },
}

/** `low <= open, close <= high`. */
export const ohlcOrder: Rule = {
  id: 'ohlc-order',
  title: 'every candle keeps low <= open <= high and low <= close <= high',
  anchor: 'candle-data',
  afterOthers: true,
  async run(ctx) {
    checkCandles(ctx, await candlePages(ctx), () => 'a candle breaks low <= open, close <= high', ohlcOutOfOrder)
  },
}

/** Volumes are never negative. */
export const volumesNonNegative: Rule = {
  id: 'volumes-non-negative',
  title: 'every candle has base_volume >= 0 and quote_volume >= 0',
  anchor: 'candle-data',
  afterOthers: true,
  async run(ctx) {
    checkCandles(ctx, await candlePages(ctx), () => 'a candle has a negative volume', negativeVolume)
  },
}

/** An aggregated candle lists its contributors: at least one, ascending, each a known exchange. */
export const aggregatedExchanges: Rule = {
  id: 'aggregated-exchanges',
  title: "an aggregated candle's exchanges are its contributors: at least one, ascending, each listed by /v1/exchanges",
  anchor: 'candle-data',
  afterOthers: true,
  async run(ctx) {
    const pages = await candlePages(ctx, ['aggregated_ohlcv'])
    const known = new Set((await ctx.facts.exchanges()).map((e) => e.name))
    checkCandles(ctx, pages, () => "an aggregated candle's exchanges are not its contributors, ascending, from the catalog", (c) => badExchanges(c, known))
  },
}
