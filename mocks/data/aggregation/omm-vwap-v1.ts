import type { AggregatedCandle, ExchangeCandle, KnownInterval } from '../../../src/schemas/index.js'

/**
 * `omm_vwap_v1` (contract: aggregation): combines the candidates of one (pair, interval, close_ts).
 * Returns `undefined` when no candidate contributes.
 */
export function ommVwapV1(interval: KnownInterval, base: string, quote: string, candidates: readonly ExchangeCandle[]): AggregatedCandle | undefined {
  const contributors = candidates.filter((c) => c.flag !== 'outlier_excluded')
  if (contributors.length === 0) return undefined
  let baseVolume = 0
  let quoteVolume = 0
  for (const c of contributors) {
    baseVolume += c.base_volume
    quoteVolume += c.quote_volume
  }
  const weighted = (field: 'open' | 'high' | 'low' | 'close'): number => {
    let sum = 0
    if (baseVolume > 0) {
      for (const c of contributors) sum += c[field] * c.base_volume
      return sum / baseVolume
    }
    for (const c of contributors) sum += c[field]
    return sum / contributors.length
  }
  const high = weighted('high')
  const low = weighted('low')
  const vwap = baseVolume > 0 ? quoteVolume / baseVolume : weighted('close')
  return {
    method: 'omm_vwap_v1',
    interval,
    base,
    quote,
    close_ts: contributors[0]!.close_ts,
    open: weighted('open'),
    high,
    low,
    // Clamped only against floating-point rounding; mathematically the VWAP is inside [low, high].
    close: Math.min(high, Math.max(low, vwap)),
    base_volume: baseVolume,
    quote_volume: quoteVolume,
    exchanges: contributors.map((c) => c.exchange).sort(),
    flag: contributors.length < candidates.length ? 'outlier_excluded' : contributors.some((c) => c.flag === 'outlier') ? 'outlier' : null,
  }
}
