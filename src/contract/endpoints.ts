/** An endpoint's name, as plans name it: `exchange_ohlcv`, `aggregated_ohlcv`, ... */
export type EndpointName = 'exchanges' | 'assets' | 'exchange_pairs' | 'aggregated_pairs' | 'exchange_ohlcv' | 'aggregated_ohlcv'

/**
 * The six endpoints: path and whether they need the API key. The reference service routes by this
 * table and the SDK builds its requests from it, so the two cannot disagree on a path.
 */
export const ENDPOINTS = {
  exchanges: { path: '/v1/exchanges', authenticated: false },
  assets: { path: '/v1/assets', authenticated: false },
  exchange_pairs: { path: '/v1/exchange_pairs', authenticated: false },
  aggregated_pairs: { path: '/v1/aggregated_pairs', authenticated: false },
  exchange_ohlcv: { path: '/v1/exchange_ohlcv', authenticated: true },
  aggregated_ohlcv: { path: '/v1/aggregated_ohlcv', authenticated: true },
} as const satisfies Record<EndpointName, { path: `/v1/${EndpointName}`; authenticated: boolean }>

/** The two authenticated candle endpoints. */
export type CandleEndpointName = Extract<EndpointName, 'exchange_ohlcv' | 'aggregated_ohlcv'>

/**
 * The header that carries the API key. The client sets it for you; use it when you call the service
 * with your own HTTP code.
 * @example
 * await fetch(url, { headers: { [API_KEY_HEADER]: process.env.MARKET_CANDLES_API_KEY! } })
 */
export const API_KEY_HEADER = 'X-API-Key'

/**
 * The base URL used when none is given. It is a reserved `.example` name, never a live host:
 * point the SDK at your deployment with `baseUrl`; the mocks intercept this URL by default.
 * @example
 * const mock = setupMockService() // from 'market-candles/mocks/node': serves DEFAULT_BASE_URL
 * const client = createClient({ apiKey: 'demo-pro-key', baseUrl: DEFAULT_BASE_URL })
 */
export const DEFAULT_BASE_URL = 'https://api.market-candles.example'
