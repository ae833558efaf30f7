import type { CandleEndpointName } from '../../../../src/contract/index.js'
import type { Answer } from '../../prober.js'
import { Skip, type RuleContext } from '../../rule.js'
import { CANDLE_ENDPOINTS } from './each-endpoint.js'

/** A candle array the run received, with the interval its request asked for. */
export interface CandlePage {
  answer: Answer
  interval: string
  candles: Array<Record<string, unknown>>
}

const pageOf = (answer: Answer): CandlePage => ({
  answer,
  interval: new URLSearchParams(answer.query).get('interval') ?? '',
  candles: (answer.body as unknown[]).filter((c): c is Record<string, unknown> => c !== null && typeof c === 'object'),
})

/**
 * The candle pages of `endpoints` the run already received (every 200 array, any key). An endpoint
 * with none (a run with `--only`) costs one request: its latest 100 candles. Skips the rule when no
 * page could be had at all.
 */
export async function candlePages(ctx: RuleContext, endpoints: readonly CandleEndpointName[] = CANDLE_ENDPOINTS): Promise<CandlePage[]> {
  const pages: CandlePage[] = []
  const missing: string[] = []
  for (const endpoint of endpoints) {
    const path = `/v1/${endpoint}`
    let seen = ctx.prober.answers.filter((a) => a.path === path && a.status === 200 && Array.isArray(a.body))
    if (seen.length === 0) {
      try {
        const page = await ctx.facts.page(await ctx.facts.series(endpoint), { limit: '100' })
        seen = page.status === 200 && Array.isArray(page.answer.body) ? [page.answer] : []
        if (seen.length === 0) missing.push(`${endpoint}: ${page.answer.request} answered ${page.status}`)
      } catch (error) {
        if (!(error instanceof Skip)) throw error
        missing.push(`${endpoint}: ${error.message}`)
      }
    }
    pages.push(...seen.map(pageOf))
  }
  if (pages.every((p) => p.candles.length === 0)) ctx.skip(missing.length > 0 ? `no candle page to look at (${missing.join('; ')})` : 'every candle page of the run was empty')
  return pages
}
