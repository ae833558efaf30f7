import { INTERVAL_MS, isKnownInterval, type Asset, type Exchange } from '../../../src/schemas/index.js'
import type { AnyCandle } from '../../../src/schemas/index.js'
import { defaultDataset } from '../procedural/default-dataset.js'
import { parseTimestamp } from '../../../src/contract/close-time.js'

/** What the derived catalog is checked against: the service's exchanges and assets. */
export interface KnownCatalog {
  exchange(name: string): Exchange | undefined
  hasAsset(ticker: string): boolean
}

// A recording from a real deployment names assets the default dataset lacks: their type is guessed
// from the ticker, `CRYPTO` unless it is a currency or a dollar-pegged coin known here.
const FIAT = new Set(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'CNY', 'HKD', 'SGD', 'KRW', 'INR', 'BRL', 'MXN', 'TRY', 'ZAR', 'RUB', 'PLN', 'SEK', 'NOK', 'DKK', 'CZK', 'HUF', 'ILS', 'AED', 'UAH', 'IDR', 'THB', 'PHP', 'NGN', 'ARS'])
const STABLECOINS = new Set(['USDT', 'USDC', 'DAI', 'BUSD', 'TUSD', 'USDP', 'PYUSD', 'FDUSD', 'GUSD', 'USDD', 'FRAX', 'LUSD', 'USDE', 'EURC', 'EURT', 'USDS'])

const DEFAULT_ASSETS = new Map(defaultDataset.assets.map((a) => [a.ticker, a]))

/** The asset type `load()` gives a ticker the service does not know. */
export function guessAssetType(ticker: string): Asset['asset_type'] {
  return FIAT.has(ticker) ? 'FIAT' : STABLECOINS.has(ticker) ? 'STABLECOIN' : 'CRYPTO'
}

/**
 * The exchanges and assets the candles name that the service does not know, made from the data:
 * an exchange opened on the UTC day its first candle opens (`creation_date`), never closed; an asset
 * as the default dataset lists it (`BTC`: Bitcoin, CRYPTO), else named by its ticker, its type
 * guessed ({@link guessAssetType}). What a replay of a recording needs
 * to be served as it was; known exchanges and assets are kept as they are (and their lifetimes
 * still apply). An aggregated candle's contributing exchanges count as named.
 */
export function derivedCatalog(candles: readonly AnyCandle[], known: KnownCatalog): { exchanges: Exchange[]; assets: Asset[] } {
  // Known names are asked once. Unknown exchanges keep their earliest close_ts per interval, as
  // text: the service's form sorts as time does, so a row costs a comparison, not a Date.parse.
  const isKnownExchange = new Map<string, boolean>()
  const earliest = new Map<string, Map<string, { first: string }>>()
  let lastName: string | undefined
  let lastInterval: string | undefined
  let last: { first: string } | undefined
  const tickers = new Map<string, boolean>()
  const newAssets: Asset[] = []
  const noteExchange = (name: string, c: AnyCandle) => {
    let knownHere = isKnownExchange.get(name)
    if (knownHere === undefined) isKnownExchange.set(name, (knownHere = typeof name !== 'string' || name === '' || known.exchange(name) !== undefined))
    if (knownHere) return
    // The previous row's series is looked up without a key.
    if (name !== lastName || c.interval !== lastInterval) {
      let byInterval = earliest.get(name)
      if (byInterval === undefined) earliest.set(name, (byInterval = new Map()))
      let found = byInterval.get(c.interval)
      if (found === undefined) byInterval.set(c.interval, (found = { first: c.close_ts }))
      ;[lastName, lastInterval, last] = [name, c.interval, found]
    }
    const seen = last!.first
    // Both in the service's form (20 characters), text order is time order.
    if (c.close_ts.length === 20 && seen.length === 20 ? c.close_ts < seen : parseTimestamp(c.close_ts) < parseTimestamp(seen)) last!.first = c.close_ts
  }
  const noteAsset = (ticker: string) => {
    if (tickers.has(ticker)) return
    const knownHere = typeof ticker !== 'string' || ticker === '' || known.hasAsset(ticker)
    tickers.set(ticker, knownHere)
    if (!knownHere) newAssets.push(DEFAULT_ASSETS.get(ticker) ?? { name: ticker, asset_type: guessAssetType(ticker), ticker })
  }
  let lastBase: unknown
  let lastQuote: unknown
  for (const c of candles) {
    if ('exchange' in c) {
      if (isKnownExchange.get(c.exchange) !== true) noteExchange(c.exchange, c)
    } else if (Array.isArray(c.exchanges)) for (const e of c.exchanges) noteExchange(e, c)
    // A series' rows come together: its pair is looked up once per run.
    if (c.base !== lastBase) noteAsset((lastBase = c.base))
    if (c.quote !== lastQuote) noteAsset((lastQuote = c.quote))
  }
  const exchanges: Exchange[] = []
  for (const [name, byInterval] of earliest) {
    let open = Infinity
    for (const [interval, { first: closeTs }] of byInterval) {
      const t = parseTimestamp(closeTs) - (isKnownInterval(interval) ? INTERVAL_MS[interval] : 0)
      if (t < open) open = t
    }
    // A close time putCandles refuses leaves no date to take: the batch is refused anyway.
    if (Number.isFinite(open)) exchanges.push({ name, creation_date: new Date(open).toISOString().slice(0, 10), closing_date: null })
  }
  return { exchanges, assets: newAssets }
}
