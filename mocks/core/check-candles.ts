import type * as z from 'zod/mini'
import type { AggregatedCandle, Exchange, ExchangeCandle, KnownInterval } from '../../src/schemas/index.js'
import { aggregatedCandleSchema, exchangeCandleSchema } from '../../src/schemas/index.js'
import { describeIssue, formatTimestamp } from '../../src/contract/index.js'
import { candleProblems, lifetimeProblem } from '../data/candle-rules.js'
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
  const seen = new Map<string, number>()
  const groups = new Map<string, SeriesRows<ExchangeCandle | AggregatedCandle>>()
  const aggregatedKeys = new Set<string>()
  for (let index = 0; index < candles.length; index++) {
    const row: unknown = candles[index]
    const before = issues.length
    const issue = (field: string | undefined, message: string) => issues.push({ index, ...(field === undefined ? {} : { field }), message })
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      issue(undefined, `expected a candle object, got ${row === null ? 'null' : Array.isArray(row) ? 'array' : typeof row}`)
      continue
    }
    const aggregated = !('exchange' in row)
    if (!aggregated && 'exchanges' in row) {
      issue('exchanges', 'a candle has either `exchange` (an exchange candle) or `exchanges` and `method` (an aggregated one), not both')
      continue
    }
    const parsed = (aggregated ? aggregatedCandleSchema : exchangeCandleSchema).safeParse(row)
    if (!parsed.success) {
      for (const zodIssue of parsed.error.issues) issues.push(issueOf(index, zodIssue))
      continue
    }
    const candle = parsed.data
    for (const p of candleProblems(candle, !aggregated)) issue(p.field, p.message)
    for (const side of ['base', 'quote'] as const) {
      if (!catalog.hasAsset(candle[side])) issue(side, `unknown asset '${candle[side]}' (put it first with putAsset)`)
    }
    let name: string
    if ('exchange' in candle) {
      name = candle.exchange
      const exchange = catalog.exchange(name)
      if (!exchange) issue('exchange', `unknown exchange '${name}' (put it first with putExchange)`)
      else if (issues.length === before) {
        const problem = lifetimeProblem(candle, exchange)
        if (problem) issue('close_ts', problem)
      }
    } else {
      name = candle.method
      if (!Object.hasOwn(METHOD_IMPLEMENTATIONS, name)) issue('method', `unknown method '${name}' (known: ${Object.keys(METHOD_IMPLEMENTATIONS).join(', ')})`)
      if (candle.exchanges.length === 0) issue('exchanges', 'an aggregated candle has at least one contributing exchange')
      const unknown = candle.exchanges.filter((e) => !catalog.exchange(e))
      if (unknown.length > 0) issue('exchanges', `unknown exchange${unknown.length === 1 ? '' : 's'} ${unknown.map((e) => `'${e}'`).join(', ')}`)
    }
    if (issues.length > before) continue
    const t = Date.parse(candle.close_ts)
    const seriesKey = mapKey(aggregated ? 'aggregated' : 'exchange', name, candle.interval, candle.base, candle.quote)
    const rowKey = `${seriesKey}${t}`
    const twin = seen.get(rowKey)
    if (twin !== undefined) {
      issue('close_ts', `the same series and close_ts as candles[${twin}] (one candle per series and close time)`)
      continue
    }
    seen.set(rowKey, index)
    let group = groups.get(seriesKey)
    if (!group) {
      groups.set(seriesKey, (group = { name, interval: candle.interval as KnownInterval, base: candle.base, quote: candle.quote, rows: [] }))
      if (aggregated) aggregatedKeys.add(seriesKey)
    }
    group.rows.push({ t, candle: { ...candle, close_ts: formatTimestamp(t) } })
  }
  if (issues.length > 0) return issues
  const batch: CheckedBatch = { exchange: [], aggregated: [] }
  for (const [key, group] of groups) {
    group.rows.sort((a, b) => a.t - b.t)
    if (aggregatedKeys.has(key)) batch.aggregated.push(group as SeriesRows<AggregatedCandle>)
    else batch.exchange.push(group as SeriesRows<ExchangeCandle>)
  }
  return batch
}
