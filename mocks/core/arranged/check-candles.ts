import type * as z from 'zod/mini'
import type { AggregatedCandle, Exchange, ExchangeCandle, KnownInterval } from '../../../src/schemas/index.js'
import { aggregatedCandleSchema, exchangeCandleSchema } from '../../../src/schemas/index.js'
import { describeIssue, formatTimestamp } from '../../../src/contract/index.js'
import { candleProblems, lifetimeOf } from '../../data/candle-rules.js'
import { METHOD_IMPLEMENTATIONS } from '../../data/aggregation/method-registry.js'
import type { Timed } from '../../data/series.js'
import type { DataIssue } from '../../data/arranged-data.js'
import { fastExchangeCandle, fastRead } from './fast-candle.js'
import { parseTimestamp } from '../../../src/contract/close-time.js'

/** What a batch is checked against: the service's exchanges and assets, put ones included. */
export interface Catalog {
  exchange(name: string): Exchange | undefined
  hasAsset(ticker: string): boolean
}

/** The rows of one series, sorted by close time, `close_ts` written as the service writes it. */
export interface SeriesRows<C> {
  /** The exchange, or the method of an aggregated series. */
  name: string
  interval: KnownInterval
  base: string
  quote: string
  aggregated: boolean
  rows: Timed<C>[]
}

/** A batch that passed every rule, grouped by series. */
export interface CheckedBatch {
  exchange: SeriesRows<ExchangeCandle>[]
  aggregated: SeriesRows<AggregatedCandle>[]
}

/** A zod issue as a DataIssue: the path is the field, the message the rule alone. */
export function issueOf(index: number, issue: z.core.$ZodIssue): DataIssue {
  const field = issue.path.map(String).join('.')
  return { index, ...(field === '' ? {} : { field }), message: describeIssue({ ...issue, path: [] }) }
}

const typeOf = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x)

interface Group extends SeriesRows<ExchangeCandle | AggregatedCandle> {
  /** The batch index of each row, parallel to `rows` until sorted. */
  indices: number[]
}

/**
 * Checks a batch whole (contract: reference-service, the rules of explicit candles): schema, grid,
 * prices within [low, high], volumes, known interval, exchange, assets and method, the exchange's
 * lifetime, no two rows of one series at one close time. Every issue of every row, or the batch
 * grouped by series. O(n log n): the only non-linear step is sorting each series' rows.
 * `owned`: the rows are fresh objects of exactly a candle's fields, kept rather than copied (`load`).
 */
export function checkCandles(candles: unknown, catalog: Catalog, owned = false): CheckedBatch | DataIssue[] {
  if (!Array.isArray(candles)) return [{ index: 0, message: `expected an array of candles, got ${typeOf(candles)}` }]
  const issues: DataIssue[] = []
  // Lookups repeat for every row of a batch: each name is asked of the catalog once.
  const exchanges = new Map<string, Exchange | undefined>()
  const exchangeOf = (name: string) => (exchanges.has(name) ? exchanges.get(name) : (exchanges.set(name, catalog.exchange(name)), exchanges.get(name)))
  const assets = new Map<string, boolean>()
  const hasAsset = (ticker: string) => assets.get(ticker) ?? (assets.set(ticker, catalog.hasAsset(ticker)), assets.get(ticker)!)
  const lifetimes = new Map<Exchange, Map<string, { first: number; last: number }>>()
  const lifetimeAt = (e: Exchange, interval: KnownInterval) => {
    let byInterval = lifetimes.get(e)
    if (!byInterval) lifetimes.set(e, (byInterval = new Map()))
    let life = byInterval.get(interval)
    if (!life) byInterval.set(interval, (life = lifetimeOf(e, interval)))
    return life
  }
  const groups: Group[] = []
  const byKey = new Map<string, Group>()
  let last: Group | undefined
  let index = 0
  // One function for the whole batch (a closure per row costs more than the row's checks).
  const issue = (field: string | undefined, message: string) => issues.push({ index, ...(field === undefined ? {} : { field }), message })

  for (; index < candles.length; index++) {
    const row: unknown = candles[index]
    const before = issues.length
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      issue(undefined, `expected a candle object, got ${typeOf(row)}`)
      continue
    }
    // An aggregated candle has no `exchange` (left out, or undefined as a spread leaves it).
    const aggregated = (row as { exchange?: unknown }).exchange === undefined
    if (!aggregated && (row as { exchanges?: unknown }).exchanges !== undefined) {
      issue('exchanges', 'a candle has either `exchange` (an exchange candle) or `exchanges` and `method` (an aggregated one), not both')
      continue
    }
    let candle: ExchangeCandle | AggregatedCandle
    let t: number
    let canonical = false
    const fast = aggregated ? undefined : fastExchangeCandle(row as Record<string, unknown>, owned)
    if (fast) {
      candle = fast
      t = fastRead.t
      canonical = fastRead.canonical
    } else {
      const parsed = (aggregated ? aggregatedCandleSchema : exchangeCandleSchema).safeParse(row, { reportInput: true })
      if (!parsed.success) {
        for (const zodIssue of parsed.error.issues) issues.push(issueOf(index, zodIssue))
        continue
      }
      candle = parsed.data
      t = parseTimestamp(candle.close_ts)
    }
    for (const p of candleProblems(candle, !aggregated, t)) issue(p.field, p.message)
    if (!hasAsset(candle.base)) issue('base', `unknown asset '${candle.base}' (put it first with putAsset)`)
    if (!hasAsset(candle.quote)) issue('quote', `unknown asset '${candle.quote}' (put it first with putAsset)`)
    let name: string
    if ('exchange' in candle) {
      name = candle.exchange
      const exchange = exchangeOf(name)
      if (!exchange) issue('exchange', `unknown exchange '${name}' (put it first with putExchange)`)
      else if (issues.length === before) {
        const { first, last } = lifetimeAt(exchange, candle.interval as KnownInterval)
        if (t < first) issue('close_ts', `opens before the exchange's creation_date ${exchange.creation_date}`)
        else if (t > last) issue('close_ts', `closes after the exchange's closing_date ${exchange.closing_date} (history stops there)`)
      }
    } else {
      name = candle.method
      if (!Object.hasOwn(METHOD_IMPLEMENTATIONS, name)) issue('method', `unknown method '${name}' (known: ${Object.keys(METHOD_IMPLEMENTATIONS).join(', ')})`)
      if (candle.exchanges.length === 0) issue('exchanges', 'an aggregated candle has at least one contributing exchange')
      const unknown = candle.exchanges.filter((e) => !exchangeOf(e))
      if (unknown.length > 0) issue('exchanges', `unknown exchange${unknown.length === 1 ? '' : 's'} ${unknown.map((e) => `'${e}'`).join(', ')}`)
    }
    if (issues.length > before) continue
    // Rows of one series usually come together: the previous row's group, found without a key.
    let group = last
    if (!group || group.aggregated !== aggregated || group.name !== name || group.interval !== candle.interval || group.base !== candle.base || group.quote !== candle.quote) {
      const key = JSON.stringify([aggregated, name, candle.interval, candle.base, candle.quote])
      group = byKey.get(key)
      if (!group) {
        group = { name, interval: candle.interval as KnownInterval, base: candle.base, quote: candle.quote, aggregated, rows: [], indices: [] }
        byKey.set(key, group)
        groups.push(group)
      }
      last = group
    }
    // The service writes close_ts as YYYY-MM-DDTHH:MM:SSZ whatever the row wrote.
    group.rows.push({ t, candle: canonical ? candle : { ...candle, close_ts: formatTimestamp(t) } })
    group.indices.push(index)
  }

  for (const group of groups) sortGroup(group, issues)
  if (issues.length > 0) return issues.sort((a, b) => a.index - b.index)
  const batch: CheckedBatch = { exchange: [], aggregated: [] }
  for (const group of groups) {
    const { indices: _, ...rows } = group
    if (group.aggregated) batch.aggregated.push(rows as SeriesRows<AggregatedCandle>)
    else batch.exchange.push(rows as SeriesRows<ExchangeCandle>)
  }
  return batch
}

/** Sorts a group by close time (already sorted: nothing to do) and names rows that repeat a close time. */
function sortGroup(group: Group, issues: DataIssue[]): void {
  const { rows, indices } = group
  let sorted = true
  for (let i = 1; i < rows.length && sorted; i++) sorted = rows[i - 1]!.t < rows[i]!.t
  if (!sorted) {
    const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.t - rows[b]!.t || indices[a]! - indices[b]!)
    group.rows = order.map((i) => rows[i]!)
    group.indices = order.map((i) => indices[i]!)
  }
  for (let i = 1; i < group.rows.length; i++) {
    if (group.rows[i]!.t !== group.rows[i - 1]!.t) continue
    // Every repeat names the first row at that close time.
    let first = i - 1
    while (first > 0 && group.rows[first - 1]!.t === group.rows[i]!.t) first--
    issues.push({ index: group.indices[i]!, field: 'close_ts', message: `the same series and close_ts as candles[${group.indices[first]!}] (one candle per series and close time)` })
  }
}
