/*
 * A candlestick chart over the SDK, served by the reference service in MSW's Service Worker: no
 * server. The catalog fills the selects; scrolling left loads older candles through the backward
 * walk; new candles join at the right edge as they close (the SDK's follow; the mock's clock runs
 * fast); a request the key's plan does not allow shows the service's reason. The intervals the
 * service does not have (5m, 15m, 4h) are resampled in the page from the ones it has, the newest
 * bucket growing as its candles close.
 *
 * The demo keys only exist in the mock. A real page never holds an API key: it calls the public
 * catalog directly and asks its own backend, which holds the key, for candles.
 */
import { CandlestickSeries, HistogramSeries, createChart, type CandlestickData, type HistogramData, type UTCTimestamp } from 'lightweight-charts'
import { setupMockWorker } from '../../mocks/browser/index.js'
import { INTERVALS } from '../../src/schemas/index.js'
import { APIUserAbortError, MarketCandlesError, PermissionDeniedError, createClient, resample, type AggregatedCandle, type ExchangeCandle, type MarketCandles, type ResampledCandle } from '../../src/index.js'

type Candle = ExchangeCandle | AggregatedCandle

const NOW = '2026-06-01T00:00:00Z'
/** The mock's clock runs this many times wall speed: a new 1h candle every 2 s, 30 1m candles a second. */
const CLOCK_RATE = 1800
const PAGE_SIZE = 300
/** Intervals built in the page, and the service's interval each is built from. */
const RESAMPLED: Record<string, string> = { '5m': '1m', '15m': '1m', '4h': '1h' }
const SHOWN_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'].filter((i) => (INTERVALS as readonly string[]).includes(RESAMPLED[i] ?? i))
/** Load an older page when fewer bars than this are left to the left of the view. */
const NEAR_LEFT_EDGE = 30

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const select = { series: $<HTMLSelectElement>('series'), exchange: $<HTMLSelectElement>('exchange'), pair: $<HTMLSelectElement>('pair'), interval: $<HTMLSelectElement>('interval'), key: $<HTMLSelectElement>('key') }
const status = $<HTMLParagraphElement>('status')
const errorBox = $<HTMLParagraphElement>('error')

const mock = setupMockWorker({ now: NOW, clockRate: CLOCK_RATE })
await mock.start({ serviceWorker: { url: './mockServiceWorker.js' } })

// The catalog is public: this client sends no key.
const catalog = createClient()

const chart = createChart($('chart'), {
  autoSize: true,
  layout: { background: { color: '#0f1419' }, textColor: '#8b949e' },
  grid: { vertLines: { color: '#1b222b' }, horzLines: { color: '#1b222b' } },
  timeScale: { timeVisible: true, borderColor: '#232a33' },
  rightPriceScale: { borderColor: '#232a33' },
})
const candleSeries = chart.addSeries(CandlestickSeries, {
  upColor: '#26a69a', downColor: '#ef5350', borderVisible: false, wickUpColor: '#26a69a', wickDownColor: '#ef5350',
})
const volumeSeries = chart.addSeries(HistogramSeries, { priceFormat: { type: 'volume' }, priceScaleId: 'volume', lastValueVisible: false, priceLineVisible: false })
volumeSeries.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } })
candleSeries.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } })

function fill(el: HTMLSelectElement, values: readonly string[], preferred: string): void {
  const keep = values.includes(el.value) ? el.value : values.includes(preferred) ? preferred : values[0]
  el.replaceChildren(...values.map((v) => new Option(v, v)))
  if (keep !== undefined) el.value = keep
}

function showError(error: unknown): void {
  const text =
    error instanceof PermissionDeniedError
      ? `This key's plan does not allow that request: ${error.detail}. Pick another key, series or interval.`
      : error instanceof MarketCandlesError
        ? `${error.name}: ${error.message}`
        : `Unexpected error: ${String(error)}`
  errorBox.textContent = text
  errorBox.hidden = false
  status.dataset.state = 'error'
}

/** The backward walk of the selected series: newest page first, each page ascending. */
let walk: AsyncIterator<{ candles: Candle[] }> | undefined
/** The service's candles loaded so far, ascending. */
let loaded: Candle[] = []
/** The interval shown when it is resampled from `loaded`; undefined shows `loaded` as it is. */
let target: string | undefined
let loading: Promise<void> | undefined
let exhausted = false
let generation = 0
/** Candles the backward walk loaded, and those the follow added since. */
let fromWalk = 0
let fromFollow = 0
/** Stops the follow of the previous selection. */
let following: AbortController | undefined

const time = (c: Candle) => (Date.parse(c.close_ts) / 1000) as UTCTimestamp
const up = (c: Candle) => c.close >= c.open
const bar = (c: Candle): CandlestickData => ({ time: time(c), open: c.open, high: c.high, low: c.low, close: c.close })
const volume = (c: Candle): HistogramData => ({ time: time(c), value: c.base_volume, color: up(c) ? 'rgba(38,166,154,0.45)' : 'rgba(239,83,80,0.45)' })

/** The status line and its data attributes (the Chromium test reads them); `candles` are the bars shown. */
function showStatus(candles: readonly Candle[]): void {
  const first = candles[0]
  status.dataset.candles = String(fromWalk)
  status.dataset.live = String(fromFollow)
  status.dataset.shown = String(candles.length)
  status.dataset.source = String(loaded.length)
  status.dataset.oldest = first?.close_ts ?? ''
  status.dataset.newest = loaded.at(-1)?.close_ts ?? ''
  const from = target === undefined ? '' : ` ${target}, resampled in the page from ${loaded.length.toLocaleString('en')} ${RESAMPLED[target]} candles`
  status.textContent = first
    ? `${candles.length.toLocaleString('en')} candles${from}, ${first.close_ts} to ${candles.at(-1)!.close_ts}${fromFollow > 0 ? `, ${fromFollow} closed since` : ''}${exhausted ? ' (start of the history this key may read)' : ' · scroll left for older candles'}`
    : 'No candles in this range.'
}

/** What the chart shows: the loaded candles, or their resampled buckets. */
function shown(): Candle[] {
  if (target === undefined) return loaded
  const buckets: Array<ResampledCandle<Candle>> = [...resample(loaded, target)]
  // The oldest bucket may still miss candles of a page not loaded yet: it waits for that page.
  if (!exhausted && buckets[0]?.complete === false) buckets.shift()
  return buckets
}

function render(): void {
  const candles = shown()
  candleSeries.setData(candles.map(bar))
  volumeSeries.setData(candles.map(volume))
  showStatus(candles)
}

/**
 * Follows the selected series from right after its newest loaded candle: each candle that closes
 * joins the chart at the right edge (a resampled view redraws its newest bucket). The mock's clock
 * runs fast, so the follow is given it as `now`.
 */
async function followNewest(client: MarketCandles, aggregated: boolean, query: { interval: string; base: string; quote: string }, mine: number): Promise<void> {
  const controller = new AbortController()
  following = controller
  const newest = loaded.at(-1)
  const params = { ...query, ...(newest ? { start: Date.parse(newest.close_ts) + 1 } : {}) }
  const options = { signal: controller.signal, now: () => mock.service.clock.now() }
  const live = aggregated ? client.aggregatedOhlcvFollow(params, options) : client.exchangeOhlcvFollow({ ...params, exchange: select.exchange.value }, options)
  try {
    for await (const page of live.pages()) {
      if (mine !== generation) return
      loaded.push(...page.candles)
      fromFollow += page.candles.length
      if (target !== undefined) {
        render()
        continue
      }
      for (const candle of page.candles) {
        // update() appends a bar at the right edge; the view moves with it when it shows the edge.
        candleSeries.update(bar(candle))
        volumeSeries.update(volume(candle))
      }
      showStatus(loaded)
    }
  } catch (error) {
    if (!(error instanceof APIUserAbortError) && mine === generation) showError(error)
  }
}

function loadOlder(): Promise<void> {
  if (loading || exhausted || !walk) return loading ?? Promise.resolve()
  const mine = generation
  status.dataset.state = 'loading'
  loading = walk
    .next()
    .then((step) => {
      if (mine !== generation) return
      if (step.done) exhausted = true
      else {
        loaded = [...step.value.candles, ...loaded]
        fromWalk += step.value.candles.length
      }
      render()
      status.dataset.state = 'ready'
    })
    .catch((error: unknown) => {
      if (mine === generation) showError(error)
    })
    .finally(() => {
      if (mine === generation) loading = undefined
    })
  return loading
}

async function reload(): Promise<void> {
  // A newer selection supersedes this one: each step checks it is still the current one.
  const mine = ++generation
  following?.abort()
  following = undefined
  walk = undefined
  loaded = []
  fromWalk = 0
  fromFollow = 0
  exhausted = false
  loading = undefined
  errorBox.hidden = true
  const aggregated = select.series.value === 'aggregated'
  select.exchange.disabled = aggregated
  const chosen = select.interval.value
  target = RESAMPLED[chosen] === undefined ? undefined : chosen
  const interval = RESAMPLED[chosen] ?? chosen
  try {
    const pairs = aggregated ? await catalog.aggregatedPairs({ interval }) : await catalog.exchangePairs({ exchange: select.exchange.value, interval })
    if (mine !== generation) return
    fill(select.pair, pairs.map((p) => `${p.base}/${p.quote}`), 'BTC/USD')
  } catch (error) {
    if (mine === generation) showError(error)
    return
  }
  const [base = '', quote = ''] = select.pair.value.split('/')
  const client = createClient({ apiKey: select.key.value })
  const query = { interval, base, quote, limit: PAGE_SIZE }
  const pages = aggregated ? client.aggregatedOhlcvPages(query) : client.exchangeOhlcvPages({ ...query, exchange: select.exchange.value })
  walk = pages[Symbol.asyncIterator]()
  render()
  await loadOlder()
  if (mine !== generation) return
  chart.timeScale().setVisibleLogicalRange({ from: Math.max(0, loaded.length - 120), to: loaded.length + 2 })
  if (status.dataset.state === 'ready') void followNewest(client, aggregated, { interval, base, quote }, mine)
}

chart.timeScale().subscribeVisibleLogicalRangeChange((range) => {
  if (range && range.from < NEAR_LEFT_EDGE) void loadOlder()
})

const exchanges = await catalog.exchanges()
fill(select.exchange, exchanges.filter((e) => e.closing_date === null).map((e) => e.name), 'bitstamp')
fill(select.interval, SHOWN_INTERVALS, '1h')
for (const el of Object.values(select)) el.addEventListener('change', () => void reload())
await reload()
