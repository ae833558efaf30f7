import type { AggregatedCandle, ExchangeCandle, KnownInterval } from '../../src/schemas/index.js'
import type { AggregatedSeries, ExchangeSeries, Timed } from './series.js'

/** How a method combines the candidates of one close_ts. */
export type Combine = (
  interval: KnownInterval,
  base: string,
  quote: string,
  candidates: readonly ExchangeCandle[],
) => AggregatedCandle | undefined

/**
 * The cross-exchange series of one pair: a k-way merge of the exchanges' series by close_ts,
 * combined on the fly. Nothing is stored apart from the exchange series.
 */
export function aggregatedSeries(method: string, combine: Combine, members: readonly ExchangeSeries[]): AggregatedSeries {
  const { interval, base, quote } = members[0]!
  function* merge(walks: Iterator<Timed<ExchangeCandle>>[], newer: (a: number, b: number) => boolean) {
    const heads = walks.map((w) => w.next())
    for (;;) {
      let t: number | undefined
      for (const h of heads) if (!h.done && (t === undefined || newer(t, h.value.t))) t = h.value.t
      if (t === undefined) return
      const candidates: ExchangeCandle[] = []
      heads.forEach((h, i) => {
        if (!h.done && h.value.t === t) {
          candidates.push(h.value.candle)
          heads[i] = walks[i]!.next()
        }
      })
      const candle = combine(interval, base, quote, candidates)
      if (candle) yield { t, candle }
    }
  }
  return {
    method,
    interval,
    base,
    quote,
    ascending: (from, to) => merge(members.map((s) => s.ascending(from, to)[Symbol.iterator]()), (best, t) => t < best),
    descending: (to, from) => merge(members.map((s) => s.descending(to, from)[Symbol.iterator]()), (best, t) => t > best),
  }
}
