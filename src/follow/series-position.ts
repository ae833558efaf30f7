import type { CandleEndpointName } from '../contract/index.js'
import type { PageCursor } from '../pagination/page-cursor.js'
import { INTERVAL_MS, isKnownInterval } from '../schemas/values/known-values.js'
import type { FollowCursor, FollowEnd, FollowSeriesId } from './follow-types.js'

/** The page size of a follow's requests when the series gives no `limit`: the service's maximum. */
export const FOLLOW_PAGE_SIZE = '1000'

/** The identity parameters of a series: what `FollowSeriesId` holds besides the endpoint. */
const IDENTITY = ['exchange', 'interval', 'base', 'quote', 'method'] as const

/**
 * Where the follow of one series stands: its identity, its bounds, and the last candle delivered
 * to the caller (the cursor points right after it).
 */
export class SeriesPosition {
  readonly id: FollowSeriesId
  readonly endpoint: CandleEndpointName
  readonly label: string
  readonly intervalMs: number
  readonly exchange: string | undefined
  /** The series' wire query without `start` / `end`: identity and `limit`. */
  readonly #base: Record<string, string>
  /** The `start` the follow began from, when it had one (history first). */
  readonly startQuery: string | undefined
  readonly #end: string | undefined
  readonly endMs: number | undefined
  /** The `close_ts` of the last candle delivered, as the service wrote it. */
  delivered: string | undefined
  ended: FollowEnd | undefined

  /** From a checked follow cursor (a new follow is turned into one first). */
  constructor(cursor: FollowCursor) {
    const { start, end, limit, ...identity } = cursor.query
    this.endpoint = cursor.endpoint
    const interval = identity.interval!
    if (!isKnownInterval(interval)) throw new TypeError(`Cannot follow interval '${interval}': its length is unknown to this version of market-candles (known: 1m, 1h, 1d)`)
    this.intervalMs = INTERVAL_MS[interval]
    const id: FollowSeriesId = { endpoint: cursor.endpoint, interval, base: identity.base!, quote: identity.quote! }
    for (const name of IDENTITY) if (identity[name] !== undefined) id[name] = identity[name]
    this.id = Object.freeze(id)
    this.exchange = cursor.endpoint === 'exchange_ohlcv' ? identity.exchange : undefined
    this.label = `${this.exchange ?? `aggregated${identity.method ? ` (${identity.method})` : ''}`} ${id.base}/${id.quote} ${interval}`
    this.#base = { ...identity, limit: limit ?? FOLLOW_PAGE_SIZE }
    this.startQuery = start
    this.#end = end
    this.endMs = end === undefined ? undefined : Date.parse(end)
    // A cursor stored after the last candle up to `end`: the follow is over.
    if (start !== undefined && this.endMs !== undefined && Date.parse(start) > this.endMs) {
      this.ended = this.endReached()
    }
  }

  /** The end of a follow whose `end` has been reached. */
  endReached(): FollowEnd {
    return { series: this.id, reason: 'end', message: `The follow of ${this.label} reached its end, ${this.#end}` }
  }

  /** Epoch ms of the last candle delivered. */
  get deliveredMs(): number | undefined {
    return this.delivered === undefined ? undefined : Date.parse(this.delivered)
  }

  #query(start: string | undefined): Record<string, string> {
    return { ...this.#base, ...(start === undefined ? {} : { start }), ...(this.#end === undefined ? {} : { end: this.#end }) }
  }

  /** The catch-up walk from `start`, or from right after `fetched`. */
  historyCursor(fetched: number | undefined): PageCursor {
    const start = fetched === undefined ? this.startQuery : new Date(fetched + 1).toISOString()
    return { version: 1, endpoint: this.endpoint, direction: 'forward', query: this.#query(start) }
  }

  /**
   * The next request at the moving edge: right after the last candle fetched; without one, from
   * the follow's `start` (never later: a candle published late must still come, and never earlier:
   * a resumed follow must not repeat one); without a `start`, from the expected close; without
   * that either, the latest candle (`limit` 1).
   */
  liveCursor(fetched: number | undefined, expected: number | undefined): PageCursor {
    const from = fetched !== undefined ? new Date(fetched + 1).toISOString() : this.startQuery ?? (expected === undefined ? undefined : new Date(expected).toISOString())
    if (from === undefined) {
      const query = { ...this.#query(undefined), limit: '1' }
      return { version: 1, endpoint: this.endpoint, direction: 'backward', query }
    }
    return { version: 1, endpoint: this.endpoint, direction: 'forward', query: this.#query(from) }
  }

  /** Where the follow goes on: right after the last candle delivered, else where it began. */
  cursor(): FollowCursor {
    const start = this.delivered === undefined ? this.startQuery : new Date(Date.parse(this.delivered) + 1).toISOString()
    return { version: 1, kind: 'follow', endpoint: this.endpoint, query: this.#query(start) }
  }
}
