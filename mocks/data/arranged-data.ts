import type { AnyCandle, Asset, Exchange } from '../../src/schemas/index.js'
import type { Plan } from './accounts.js'

/*
 * The shapes of arranging data at run time (issue "Arrange the world per test"): what
 * `service.data`, `service.keys.put` and `service.plans` take. The core implements them per service
 * and per session; the control plane (`/_mock/data/...`, `/_mock/keys/KEY`, `/_mock/plans/NAME`)
 * takes the same bodies as JSON.
 */


/** One bad row of a batch: its index in the batch, the field (when one), and the rule it breaks. */
export interface DataIssue {
  /** Index of the row in the batch. */
  index: number
  /** The field at fault, e.g. `low`; absent when the rule spans fields or the whole row. */
  field?: string
  /** The rule the row breaks, in words: `low 105 is above high 104`. */
  message: string
}

/** What one change did. */
export interface DataChange {
  /** Candles stored (put or generated), or removed. */
  candles: number
}

/** Which candles `removeCandles` drops: an outage, bounds inclusive. */
export type RemoveSelector = {
  interval: string
  base: string
  quote: string
  /** ISO datetime, date or epoch ms; inclusive. @default the series' beginning */
  from?: string | number | Date
  /** ISO datetime, date or epoch ms; inclusive. @default the series' end */
  to?: string | number | Date
} & ({ exchange: string; aggregated?: never } | { aggregated: true; exchange?: never; method?: string })

/** A procedural series for a new pair or range, from the same model as the default dataset. */
export interface GenerateSpec {
  exchange: string
  interval: string
  base: string
  quote: string
  /** First close time (inclusive), on the interval's grid or rounded up to it. */
  from: string | number | Date
  /** Last close time (inclusive). */
  to: string | number | Date
  /** @default 1 */
  seed?: number
  /** The price level the series wanders around. @default 100 */
  price?: number
  /** 1 is the default dataset's BTC. @default 1 */
  volatility?: number
  /** Typical base volume traded per minute. @default 10 */
  volumePerMinute?: number
}

/** A source `load` reads: a path of a file `market-candles export` wrote (Node only), or rows in memory. */
export type LoadSource = string | URL | readonly Record<string, unknown>[]

/**
 * The data of one service or session, changed at run time. Every change is checked whole first:
 * a bad row throws a `DataError` naming every bad row, and nothing changes. Sessions start from the
 * service's starting data and never see each other's changes.
 */
export interface DataControl {
  /**
   * Stores candles at their close times, replacing what the series had there; new series and pairs
   * appear in the catalog. An aggregated candle overrides the derived one at its close time.
   * @example
   * service.data.putCandles([{ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts: '2025-01-01T10:00:00Z',
   *   open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200,
   *   source_provider: 'test', source_channel: 'test', flag: null }]) // { candles: 1 }
   */
  putCandles(candles: readonly AnyCandle[]): DataChange
  /**
   * Drops candles: an outage, inclusive bounds. Returns how many were removed, counted up to the
   * service's now.
   * @example
   * service.data.removeCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', from: '2025-01-02T00:00:00Z', to: '2025-01-02T06:00:00Z' })
   * service.data.removeCandles({ aggregated: true, interval: '1h', base: 'BTC', quote: 'USD', from: '2025-01-02', to: '2025-01-03' })
   */
  removeCandles(selector: RemoveSelector): DataChange
  /**
   * Adds an exchange or replaces it (a `closing_date` ends its history there, the default data's too).
   * @example
   * service.data.putExchange({ name: 'bitstamp', creation_date: '2011-08-01', closing_date: '2025-05-25' })
   */
  putExchange(exchange: Exchange): void
  /**
   * Adds an asset or replaces it.
   * @example
   * service.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
   */
  putAsset(asset: Asset): void
  /**
   * A procedural series for a pair or range, from the default dataset's model, deterministic by
   * seed; it replaces what the series had in `[from, to]`.
   * @example
   * service.data.generate({ exchange: 'bitstamp', interval: '1h', base: 'PEPE', quote: 'USD', from: '2024-01-01', to: '2025-01-01', seed: 7, price: 0.00001 })
   */
  generate(spec: GenerateSpec): DataChange
  /**
   * Reads candles `market-candles export` wrote (SQLite `.sqlite`/`.db`, `.csv`, `.jsonl`, a Parquet
   * dataset's directory; a path or `file:` URL, Node only) or rows in memory, then puts them (the
   * same checks as `putCandles`). Exchanges and assets the service lacks are made from the candles
   * (an exchange opens on the day of its first candle). A bad source or row throws a `DataError`
   * naming the file and line.
   * @example
   * await service.data.load('btc.sqlite') // { candles: 1753 }
   */
  load(source: LoadSource): Promise<DataChange>
  /**
   * Back to the data the service started with (`service.reset()` also restores keys, plans, usage and the clock).
   * @example
   * afterEach(() => service.data.reset())
   */
  reset(): void
}

/** A key put at run time: the account is created with `plan` when new; `plan` moves an existing account. */
export interface KeyPut {
  key: string
  account: string
  plan?: string
}

/** The plans of one service or session. */
export interface PlanControl {
  /**
   * Adds a plan or replaces the one with its id (checked with `planSchema`).
   * @example
   * service.plans.put({ id: 'six-hours', endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } })
   */
  put(plan: Plan): void
  /** The plans, in the order they were added. */
  list(): Plan[]
}

