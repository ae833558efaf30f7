import type { Exchange, KnownInterval } from '../../src/schemas/index.js'
import { INTERVAL_MS, isKnownInterval } from '../../src/schemas/index.js'
import { parseTimestamp } from '../../src/contract/close-time.js'

/** The fields the integrity rules read: an exchange candle or an aggregated one. */
export interface CandleNumbers {
  interval: string
  close_ts: string
  open: number
  high: number
  low: number
  close: number
  base_volume: number
  quote_volume: number
}

/** One broken rule of one candle: the field at fault (when one) and the rule in words. */
export interface CandleProblem {
  field?: string
  message: string
}

/**
 * Every integrity rule a stored candle breaks (none: an empty array), so aggregation can rely on
 * them (contract: reference-service). `vwapInRange`: the implied average price
 * quote_volume / base_volume lies in [low, high], a rule of exchange candles.
 */
export function candleProblems(c: CandleNumbers, vwapInRange = true, t = parseTimestamp(c.close_ts)): CandleProblem[] {
  if (!isKnownInterval(c.interval)) return [{ field: 'interval', message: `interval '${c.interval}' is not one of 1m, 1h, 1d` }]
  // Made only when a rule is broken: a clean candle (nearly every one of a batch) allocates nothing.
  let problems: CandleProblem[] | undefined
  const { low, high } = c
  if (t % INTERVAL_MS[c.interval] !== 0) problems = withProblem(problems, { field: 'close_ts', message: `close_ts ${c.close_ts} is not on the ${c.interval} grid (close_ts is the interval's end boundary)` })
  if (low > high) problems = withProblem(problems, { field: 'low', message: `low ${low} is above high ${high}` })
  if (c.open < low || c.open > high) problems = withProblem(problems, { field: 'open', message: `open ${c.open} is outside [low ${low}, high ${high}]` })
  if (c.close < low || c.close > high) problems = withProblem(problems, { field: 'close', message: `close ${c.close} is outside [low ${low}, high ${high}]` })
  if (c.base_volume < 0) problems = withProblem(problems, { field: 'base_volume', message: `base_volume ${c.base_volume} is negative (volumes must be >= 0)` })
  if (c.quote_volume < 0) problems = withProblem(problems, { field: 'quote_volume', message: `quote_volume ${c.quote_volume} is negative (volumes must be >= 0)` })
  if (vwapInRange && c.base_volume > 0 && c.quote_volume >= 0) {
    const avg = c.quote_volume / c.base_volume
    if (avg < low || avg > high) problems = withProblem(problems, { field: 'quote_volume', message: `quote_volume / base_volume = ${avg} is outside [low ${low}, high ${high}]` })
  }
  return problems ?? NO_PROBLEMS
}

/** `problems` with one more (made on the first). */
function withProblem(problems: CandleProblem[] | undefined, problem: CandleProblem): CandleProblem[] {
  if (!problems) return [problem]
  problems.push(problem)
  return problems
}

/** What a clean candle breaks, shared (callers only read it). */
const NO_PROBLEMS: CandleProblem[] = Object.freeze([]) as unknown as CandleProblem[]

/** The first rule a candle breaks, in words (fixtures stop at the first bad record). */
export function candleProblem(c: CandleNumbers): string | undefined {
  return candleProblems(c)[0]?.message
}

/** The close times an exchange can have candles at: from its creation (the first candle opens then) to its closing date 00:00Z. */
export function lifetimeOf(exchange: Exchange, interval: KnownInterval): { first: number; last: number } {
  return {
    first: Date.parse(exchange.creation_date) + INTERVAL_MS[interval],
    last: exchange.closing_date === null ? Infinity : Date.parse(exchange.closing_date),
  }
}

/** A candle must open on or after its exchange's creation and close by its closing date (00:00Z). */
export function lifetimeProblem(c: { interval: string; close_ts: string }, exchange: Exchange): string | undefined {
  const t = parseTimestamp(c.close_ts)
  const { first, last } = lifetimeOf(exchange, c.interval as KnownInterval)
  if (t < first) return `opens before the exchange's creation_date ${exchange.creation_date}`
  if (t > last) return `closes after the exchange's closing_date ${exchange.closing_date} (history stops there)`
  return undefined
}
