import type * as z from 'zod/mini'
import type { AggregatedCandle, Exchange, ExchangeCandle, KnownInterval } from '../../src/schemas/index.js'
import { aggregatedCandleSchema, exchangeCandleSchema, isKnownInterval } from '../../src/schemas/index.js'
import { describeIssue, formatTimestamp } from '../../src/contract/index.js'
import { candleProblems, candleRulesHold, lifetimeOf, lifetimeProblem } from '../data/candle-rules.js'
import { fastAggregatedCandle, fastExchangeCandle } from './fast-candle-parse.js'
import { mapKey } from '../data/map-key.js'
import { METHOD_IMPLEMENTATIONS } from '../data/method-registry.js'
import type { Timed } from '../data/series.js'
import type { DataIssue } from './data-control.js'

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

/**
 * Checks a batch whole (contract: reference-service, the rules of explicit candles): schema, grid,
 * prices within [low, high], volumes, known interval, exchange, assets and method, the exchange's
 * lifetime, no two rows of one series at one close time. Every issue of every row, or the batch.
 */
export function checkCandles(candles: unknown, catalog: Catalog): CheckedBatch | DataIssue[] {
  if (!Array.isArray(candles)) return [{ index: 0, message: `expected an array of candles, got ${candles === null ? 'null' : typeof candles}` }]
  const issues: DataIssue[] = []
  const issue = (index: number, field: string | undefined, message: string) => issues.push({ index, ...(field === undefined ? {} : { field }), message })
  const groups = new Map<string, Group>()
  // Per batch, not per row: asset and exchange lookups, and the series of the row before (rows come in runs of one series).
  const assets = new Map<string, boolean>()
  const hasAsset = (ticker: string) => assets.get(ticker) ?? (assets.set(ticker, catalog.hasAsset(ticker)), assets.get(ticker)!)
  const lifetimes = new Map<string, { exchange: Exchange; first: number; last: number } | null>()
  const lifetime = (name: string, interval: KnownInterval) => {
    // The interval (1m, 1h, 1d) holds no space: the key is unambiguous, and cheaper than mapKey per row.
    const key = `${interval} ${name}`
    let found = lifetimes.get(key)
    if (found === undefined) {
      const exchange = catalog.exchange(name)
      found = exchange ? { exchange, ...lifetimeOf(exchange, interval) } : null
      lifetimes.set(key, found)
    }
    return found
  }
  let last: Group | undefined
  for (let index = 0; index < candles.length; index++) {
    const row: unknown = candles[index]
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      issue(index, undefined, `expected a candle object, got ${row === null ? 'null' : Array.isArray(row) ? 'array' : typeof row}`)
      continue
    }
    const aggregated = !('exchange' in row)
    if (!aggregated && 'exchanges' in row) {
      issue(index, 'exchanges', 'a candle has either `exchange` (an exchange candle) or `exchanges` and `method` (an aggregated one), not both')
      continue
    }
    // The schema judges only the rows the fast check cannot accept (fast-candle-parse.ts).
    let candle: ExchangeCandle | AggregatedCandle | undefined = aggregated ? fastAggregatedCandle(row) : fastExchangeCandle(row)
    if (!candle) {
      const parsed = (aggregated ? aggregatedCandleSchema : exchangeCandleSchema).safeParse(row)
      if (!parsed.success) {
        for (const zodIssue of parsed.error.issues) issues.push(issueOf(index, zodIssue))
        continue
      }
      candle = parsed.data
    }
    const before = issues.length
    const t = Date.parse(candle.close_ts)
    if (!candleRulesHold(candle, !aggregated, t)) for (const p of candleProblems(candle, !aggregated)) issue(index, p.field, p.message)
    if (!hasAsset(candle.base)) issue(index, 'base', `unknown asset '${candle.base}' (put it first with putAsset)`)
    if (!hasAsset(candle.quote)) issue(index, 'quote', `unknown asset '${candle.quote}' (put it first with putAsset)`)
    let name: string
    if ('exchange' in candle) {
      name = candle.exchange
      const known = isKnownInterval(candle.interval) ? lifetime(name, candle.interval) : catalog.exchange(name) ? undefined : null
      if (known === null) issue(index, 'exchange', `unknown exchange '${name}' (put it first with putExchange)`)
      else if (known && issues.length === before && (t < known.first || t > known.last)) issue(index, 'close_ts', lifetimeProblem(candle, known.exchange)!)
    } else {
      name = candle.method
      if (!Object.hasOwn(METHOD_IMPLEMENTATIONS, name)) issue(index, 'method', `unknown method '${name}' (known: ${Object.keys(METHOD_IMPLEMENTATIONS).join(', ')})`)
      if (candle.exchanges.length === 0) issue(index, 'exchanges', 'an aggregated candle has at least one contributing exchange')
      const unknown = candle.exchanges.filter((e) => !catalog.exchange(e))
      if (unknown.length > 0) issue(index, 'exchanges', `unknown exchange${unknown.length === 1 ? '' : 's'} ${unknown.map((e) => `'${e}'`).join(', ')}`)
    }
    if (issues.length > before) continue
    let group = last
    if (!group || group.aggregated !== aggregated || group.name !== name || group.interval !== candle.interval || group.base !== candle.base || group.quote !== candle.quote) {
      const seriesKey = mapKey(aggregated ? 'aggregated' : 'exchange', name, candle.interval, candle.base, candle.quote)
      group = groups.get(seriesKey)
      if (!group) groups.set(seriesKey, (group = { aggregated, name, interval: candle.interval as KnownInterval, base: candle.base, quote: candle.quote, rows: [], indexes: [] }))
      last = group
    }
    // The service writes close_ts without fractions; a valid 20-character one already is.
    if (candle.close_ts.length !== 20) candle.close_ts = formatTimestamp(t)
    group.rows.push({ t, candle })
    group.indexes.push(index)
  }
  // One candle per series and close time: after sorting (stable, so the first row of a close time keeps it).
  const before = issues.length
  for (const group of groups.values()) sortAndFindTwins(group, issue)
  if (issues.length > before) issues.sort((a, b) => a.index - b.index)
  if (issues.length > 0) return issues
  const batch: CheckedBatch = { exchange: [], aggregated: [] }
  for (const { aggregated, name, interval, base, quote, rows } of groups.values()) {
    if (aggregated) batch.aggregated.push({ name, interval, base, quote, rows: rows as Timed<AggregatedCandle>[] })
    else batch.exchange.push({ name, interval, base, quote, rows: rows as Timed<ExchangeCandle>[] })
  }
  return batch
}

/** The rows of one series while a batch is checked, with each row's index in the batch. */
interface Group extends SeriesRows<ExchangeCandle | AggregatedCandle> {
  aggregated: boolean
  indexes: number[]
}

/** Sorts a group's rows by close time (rows in order cost one pass) and names every row whose close time an earlier row of the series has. */
function sortAndFindTwins(group: Group, issue: (index: number, field: string, message: string) => void): void {
  const { rows, indexes } = group
  let sorted = true
  for (let i = 1; i < rows.length && sorted; i++) sorted = rows[i - 1]!.t < rows[i]!.t
  if (sorted) return
  const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.t - rows[b]!.t || indexes[a]! - indexes[b]!)
  group.rows = order.map((i) => rows[i]!)
  group.indexes = order.map((i) => indexes[i]!)
  let first = 0
  for (let k = 1; k < group.rows.length; k++) {
    if (group.rows[k]!.t !== group.rows[first]!.t) first = k
    else issue(group.indexes[k]!, 'close_ts', `the same series and close_ts as candles[${group.indexes[first]}] (one candle per series and close time)`)
  }
}
