import type { ProceduralDataset } from './procedural-store.js'

/**
 * The default dataset: realistic, procedural, years of 1m history. One open exchange and one
 * that closed (its history stops at its closing date); eleven assets; pairs listed at different
 * dates; a few outages, so coverage is not completeness; rare `outlier` / `outlier_excluded` flags.
 */
export const defaultDataset: ProceduralDataset = {
  exchanges: [
    {
      name: 'bitstamp',
      creation_date: '2011-08-01',
      closing_date: null,
      outages: [
        { from: '2019-03-01T02:00:00Z', to: '2019-03-03T14:00:00Z' },
        { from: '2021-05-19T13:07:00Z', to: '2021-05-19T14:31:00Z' },
        { from: '2024-10-07T08:15:00Z', to: '2024-10-07T08:52:00Z' },
        { from: '2025-06-12T23:40:00Z', to: '2025-06-13T01:10:00Z' },
      ],
    },
    {
      name: 'ftx',
      creation_date: '2019-05-08',
      closing_date: '2022-11-11',
      outages: [
        { from: '2020-03-12T10:00:00Z', to: '2020-03-12T11:30:00Z' },
        { from: '2021-12-01T00:00:00Z', to: '2021-12-02T06:00:00Z' },
      ],
    },
  ],
  assets: [
    { name: 'Bitcoin', asset_type: 'CRYPTO', ticker: 'BTC' },
    { name: 'Ethereum', asset_type: 'CRYPTO', ticker: 'ETH' },
    { name: 'Solana', asset_type: 'CRYPTO', ticker: 'SOL' },
    { name: 'XRP', asset_type: 'CRYPTO', ticker: 'XRP' },
    { name: 'Cardano', asset_type: 'CRYPTO', ticker: 'ADA' },
    { name: 'Dogecoin', asset_type: 'CRYPTO', ticker: 'DOGE' },
    { name: 'US Dollar', asset_type: 'FIAT', ticker: 'USD' },
    { name: 'Euro', asset_type: 'FIAT', ticker: 'EUR' },
    { name: 'Pound Sterling', asset_type: 'FIAT', ticker: 'GBP' },
    { name: 'Tether', asset_type: 'STABLECOIN', ticker: 'USDT' },
    { name: 'USD Coin', asset_type: 'STABLECOIN', ticker: 'USDC' },
  ],
  listings: [
    { exchange: 'bitstamp', base: 'BTC', quote: 'USD', listed: '2015-01-01T00:00:00Z', price: 30_000, volatility: 1, volumePerMinute: 4 },
    { exchange: 'bitstamp', base: 'BTC', quote: 'EUR', listed: '2016-04-14T00:00:00Z', price: 27_500, volatility: 1, volumePerMinute: 1.2 },
    { exchange: 'bitstamp', base: 'ETH', quote: 'USD', listed: '2017-08-16T00:00:00Z', price: 1_800, volatility: 1.2, volumePerMinute: 30 },
    { exchange: 'bitstamp', base: 'ETH', quote: 'BTC', listed: '2017-09-01T00:00:00Z', price: 0.06, volatility: 0.7, volumePerMinute: 12 },
    { exchange: 'bitstamp', base: 'XRP', quote: 'USD', listed: '2019-01-17T00:00:00Z', price: 0.55, volatility: 1.3, volumePerMinute: 40_000 },
    { exchange: 'bitstamp', base: 'SOL', quote: 'USDT', listed: '2021-09-08T00:00:00Z', price: 60, volatility: 1.5, volumePerMinute: 300 },
    { exchange: 'bitstamp', base: 'USDC', quote: 'USD', listed: '2022-03-01T00:00:00Z', price: 1, volatility: 0.01, volumePerMinute: 20_000 },
    { exchange: 'bitstamp', base: 'DOGE', quote: 'USD', listed: '2023-06-20T00:00:00Z', price: 0.1, volatility: 1.6, volumePerMinute: 250_000 },
    { exchange: 'bitstamp', base: 'ADA', quote: 'EUR', listed: '2024-02-15T00:00:00Z', price: 0.45, volatility: 1.4, volumePerMinute: 30_000 },
    { exchange: 'bitstamp', base: 'BTC', quote: 'GBP', listed: '2025-01-06T00:00:00Z', price: 24_000, volatility: 1, volumePerMinute: 0.6 },
    { exchange: 'ftx', base: 'BTC', quote: 'USD', listed: '2019-05-08T00:00:00Z', price: 30_000, volatility: 1, volumePerMinute: 6 },
    { exchange: 'ftx', base: 'ETH', quote: 'USD', listed: '2019-05-08T00:00:00Z', price: 1_800, volatility: 1.2, volumePerMinute: 45 },
    { exchange: 'ftx', base: 'SOL', quote: 'USDT', listed: '2020-07-27T00:00:00Z', price: 60, volatility: 1.5, volumePerMinute: 500 },
    { exchange: 'ftx', base: 'BTC', quote: 'USDT', listed: '2019-09-01T00:00:00Z', price: 30_000, volatility: 1, volumePerMinute: 5 },
  ],
}
