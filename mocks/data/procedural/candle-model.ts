import type { ExchangeCandle, KnownInterval } from '../../../src/schemas/index.js'
import { INTERVAL_MS } from '../../../src/schemas/index.js'
import { formatTimestamp } from '../../../src/contract/index.js'
import { ValueNoise, hashString, unit } from './noise.js'

/** What shapes one pair's synthetic market. */
export interface PairModel {
  readonly base: string
  readonly quote: string
  /** Typical price level. */
  readonly price: number
  /** Scales every price move; 1 suits a major crypto pair, 0.01 a stablecoin. */
  readonly volatility: number
  /** Typical base volume traded per minute. */
  readonly volumePerMinute: number
  /** Picks another market of the same shape; none: the default dataset's. */
  readonly seed?: number | undefined
}

const MINUTE = 60_000
const DAY = 86_400_000
// Price path: smooth noise at several scales summed in log space, from minutes to years.
const SCALES: ReadonlyArray<readonly [period: number, amplitude: number]> = [
  [10 * MINUTE, 0.0015],
  [3 * 3_600_000, 0.006],
  [2 * DAY, 0.025],
  [30 * DAY, 0.09],
  [365 * DAY, 0.45],
]
const PERIODS = SCALES.map(([period]) => period)
const AMPLITUDES = SCALES.map(([, amplitude]) => amplitude)
const OUTLIER_RATE = 0.0006
const EXCLUDED_RATE = 0.0002
const BACKFILL_BEFORE = Date.UTC(2020, 0, 1)

/** A series' candle function; `flagAt` gives a candle's flag alone, far cheaper than the candle. */
export type CandleFunction = ((t: number) => ExchangeCandle) & { readonly flagAt?: (t: number) => ExchangeCandle['flag'] }

/** A candle's flag from its uniform draw. */
const flagOfDraw = (r: number): ExchangeCandle['flag'] => (r < EXCLUDED_RATE ? 'outlier_excluded' : r < OUTLIER_RATE ? 'outlier' : null)

/** Rounds to the decimals of `scale` (10 ** decimals). */
const roundTo = (x: number, scale: number): number => Math.round(x * scale) / scale

/**
 * The candle function of one exchange's series: a pure function of (exchange, pair, interval,
 * close_ts). Every exchange shares the pair's price path and adds its own small deviation, so
 * prices of one pair on different exchanges stay close.
 */
export function candleModel(exchange: string, pair: PairModel, interval: KnownInterval): CandleFunction {
  const step = INTERVAL_MS[interval]
  // Without a seed the names alone seed the market, as the default dataset always did.
  const salt = pair.seed === undefined ? '' : `#${pair.seed}`
  const pairSeed = hashString(`${pair.base}/${pair.quote}${salt}`)
  const venueSeed = hashString(`${exchange}:${pair.base}/${pair.quote}${salt}`)
  const candleSeed = hashString(`${exchange}:${pair.base}/${pair.quote}:${interval}${salt}`)
  const decimals = Math.min(10, Math.max(2, 6 - Math.floor(Math.log10(pair.price))))
  const priceScale = 10 ** decimals
  const unitStep = 10 ** -decimals
  const wick = 0.0008 * pair.volatility * Math.sqrt(step / MINUTE)
  const scaleNoise = SCALES.map((_, k) => new ValueNoise(pairSeed + k * 7919))
  const venueNoise = new ValueNoise(venueSeed)
  const activityNoise = new ValueNoise(venueSeed + 3)

  const priceAt = (t: number): number => {
    let log = 0
    for (let k = 0; k < scaleNoise.length; k++) log += AMPLITUDES[k]! * scaleNoise[k]!.at(t / PERIODS[k]!)
    log = log * pair.volatility + 0.0004 * pair.volatility * venueNoise.at(t / 3_600_000)
    return pair.price * Math.exp(log)
  }

  // The last few rounded prices by instant. A candle's open is the previous candle's close, so a
  // walk in either direction computes each price once (ascending: t-step was the last close;
  // descending: t was the last open). Only ever a copy of priceAt's result: output is the same in
  // any call order.
  const MEMO = 4
  const memoT = new Float64Array(MEMO).fill(Number.NaN)
  const memoPrice = new Float64Array(MEMO)
  let memoNext = 0
  const roundedPriceAt = (t: number): number => {
    for (let i = 0; i < MEMO; i++) if (memoT[i] === t) return memoPrice[i]!
    const price = roundTo(priceAt(t), priceScale)
    memoT[memoNext] = t
    memoPrice[memoNext] = price
    memoNext = (memoNext + 1) % MEMO
    return price
  }

  const flagAt = (t: number): ExchangeCandle['flag'] => flagOfDraw(unit(candleSeed, t / MINUTE))

  const candleAt = (t: number): ExchangeCandle => {
    const n = t / MINUTE
    const open = roundedPriceAt(t - step)
    const close = roundedPriceAt(t)
    const flag = flagOfDraw(unit(candleSeed, n))
    const spike = flag === 'outlier_excluded' ? 0.04 : flag === 'outlier' ? 0.012 : 0
    const high = roundTo(Math.max(open, close) * (1 + wick * (0.2 + unit(candleSeed + 1, n)) + spike) + unitStep, priceScale)
    const low = Math.max(0, roundTo(Math.min(open, close) * (1 - wick * (0.2 + unit(candleSeed + 2, n))) - unitStep, priceScale))
    const activity = Math.exp(0.6 * activityNoise.at(t / DAY))
    const baseVolume = Math.max(0.01, roundTo(pair.volumePerMinute * (step / MINUTE) * activity * (0.3 + 1.4 * unit(candleSeed + 3, n)), 1e6))
    const vwap = (high + low + open + close) / 4
    let quoteVolume = roundTo(baseVolume * vwap, 1e8)
    const ratio = quoteVolume / baseVolume
    // Rounding must never push the implied average price outside the candle's range.
    if (ratio < low || ratio > high) quoteVolume = baseVolume * ((high + low) / 2)
    return {
      exchange,
      interval,
      base: pair.base,
      quote: pair.quote,
      close_ts: formatTimestamp(t),
      open,
      high,
      low,
      close,
      base_volume: baseVolume,
      quote_volume: quoteVolume,
      source_provider: 'market-candles-sim',
      source_channel: t < BACKFILL_BEFORE ? 'rest_backfill' : 'websocket',
      flag,
    }
  }
  return Object.assign(candleAt, { flagAt })
}
