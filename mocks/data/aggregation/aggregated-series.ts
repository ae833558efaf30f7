import { INTERVAL_MS, type AggregatedCandle, type ExchangeCandle, type KnownInterval } from '../../../src/schemas/index.js'
import { first, type AggregatedSeries, type Countable, type ExchangeSeries, type Timed } from '../series.js'

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
export function aggregatedSeries(method: string, combine: Combine, members: readonly (ExchangeSeries & Countable)[]): AggregatedSeries & Countable {
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
  // omm_vwap_v1 makes a candle wherever a candidate contributes (contract: aggregation), so the
  // members can say where candles are without computing them; undefined: a member cannot.
  const countable = method === 'omm_vwap_v1' && members.every((m) => m.contributesAt !== undefined)
  const has = (t: number): boolean | undefined => {
    if (!countable) return undefined
    let unknown = false
    for (const m of members) {
      const c = m.contributesAt!(t)
      if (c === true) return true
      if (c === undefined) unknown = true
    }
    return unknown ? undefined : false
  }
  const step = INTERVAL_MS[interval]
  return {
    method,
    interval,
    base,
    quote,
    has,
    // One check per close time of the members' span: no candle is computed but the span's ends.
    count(from: number, to: number): number | undefined {
      if (!countable) return undefined
      let lo = Infinity
      let hi = -Infinity
      for (const m of members) {
        lo = Math.min(lo, first(m.ascending(from, to))?.t ?? Infinity)
        hi = Math.max(hi, first(m.descending(to, from))?.t ?? -Infinity)
      }
      let n = 0
      for (let t = lo; t <= hi; t += step) {
        const c = has(t)
        if (c === undefined) return undefined
        if (c) n++
      }
      return n
    },
    ascending: (from, to) => merge(members.map((s) => s.ascending(from, to)[Symbol.iterator]()), (best, t) => t < best),
    descending: (to, from) => merge(members.map((s) => s.descending(to, from)[Symbol.iterator]()), (best, t) => t > best),
  }
}
