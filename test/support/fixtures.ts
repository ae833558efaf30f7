import type { ExchangeCandle } from '../../src/schemas/index.js'
import { formatTimestamp } from '../../src/contract/index.js'
import type { ExplicitDataset } from '../../mocks/index.js'

export const HOUR = 3_600_000
export const MINUTE = 60_000
export const T0 = Date.UTC(2024, 0, 1)

/** A valid exchange candle around `price`, with an average price inside its range. */
export function candle(
  exchange: string,
  pair: string,
  interval: '1m' | '1h' | '1d',
  t: number,
  price: number,
  baseVolume = 2,
  flag: ExchangeCandle['flag'] = null,
): ExchangeCandle {
  const [base, quote] = pair.split('/') as [string, string]
  return {
    exchange,
    interval,
    base,
    quote,
    close_ts: formatTimestamp(t),
    open: price - 1,
    high: price + 2,
    low: price - 2,
    close: price,
    base_volume: baseVolume,
    quote_volume: baseVolume * price,
    source_provider: 'test',
    source_channel: 'fixture',
    flag,
  }
}

/** Hourly close_ts values from `T0 + HOUR`, with outages: the hours whose index is in `missing`. */
export function hours(count: number, missing: ReadonlySet<number> = new Set()): number[] {
  const out: number[] = []
  for (let i = 1; i <= count; i++) if (!missing.has(i)) out.push(T0 + i * HOUR)
  return out
}

const GAPS_A = new Set([5, 6, 7, 20, 41, 42, 99])
const GAPS_B = new Set([3, 6, 50, 51, 52, 53])

/**
 * A small explicit dataset with known ground truth: exchange `alpha` (open) and `beta` (closed),
 * BTC/USD 1h on both with different outages, ETH/USD 1h on alpha only, flags on a few candles.
 */
export function explicitDataset(): ExplicitDataset {
  const candles: ExchangeCandle[] = []
  for (const t of hours(120, GAPS_A)) {
    const i = (t - T0) / HOUR
    const flag = i === 10 ? 'outlier' : i === 11 ? 'outlier_excluded' : null
    candles.push(candle('alpha', 'BTC/USD', '1h', t, 100 + i, 1 + (i % 3), flag))
    candles.push(candle('alpha', 'ETH/USD', '1h', t, 10 + i / 10, 5))
  }
  for (const t of hours(80, GAPS_B)) {
    const i = (t - T0) / HOUR
    candles.push(candle('beta', 'BTC/USD', '1h', t, 101 + i, 2, i === 12 ? 'outlier_excluded' : null))
  }
  return {
    exchanges: [
      { name: 'beta', creation_date: '2020-01-01', closing_date: '2024-01-05' },
      { name: 'alpha', creation_date: '2019-06-01', closing_date: null },
    ],
    assets: [
      { name: 'US Dollar', asset_type: 'FIAT', ticker: 'USD' },
      { name: 'Bitcoin', asset_type: 'CRYPTO', ticker: 'BTC' },
      { name: 'Ethereum', asset_type: 'CRYPTO', ticker: 'ETH' },
    ],
    candles,
  }
}

/** "Now" for the explicit dataset: after every fixture candle. */
export const EXPLICIT_NOW = T0 + 200 * HOUR
