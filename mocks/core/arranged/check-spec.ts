import { INTERVAL_MS, isKnownInterval, type Exchange, type KnownInterval } from '../../../src/schemas/index.js'
import { ceilTo, floorTo } from '../../data/grid.js'
import { lifetimeOf } from '../../data/candle-rules.js'
import { METHOD_IMPLEMENTATIONS } from '../../data/aggregation/method-registry.js'
import { DEFAULT_METHOD } from '../../../src/schemas/index.js'
import { toEpochMs } from '../state/clock.js'
import type { Catalog } from './check-candles.js'
import type { DataIssue, GenerateSpec, RemoveSelector } from '../../data/arranged-data.js'

/*
 * The single-record checks of removeCandles and generate: every issue of the record, index 0.
 */

type Issues = DataIssue[]
const push = (issues: Issues, field: string | undefined, message: string) => issues.push({ index: 0, ...(field === undefined ? {} : { field }), message })

/** An instant of a selector or spec: ISO text, epoch ms or a Date. */
function instantOf(issues: Issues, record: Record<string, unknown>, field: string, fallback?: number): number | undefined {
  const value = record[field]
  if (value === undefined) {
    if (fallback === undefined) push(issues, field, 'required: an ISO 8601 datetime, epoch milliseconds or a Date')
    return fallback
  }
  if (!(typeof value === 'string' || typeof value === 'number' || value instanceof Date)) {
    push(issues, field, `expected an ISO 8601 datetime, epoch milliseconds or a Date, got ${value === null ? 'null' : typeof value}`)
    return undefined
  }
  try {
    return toEpochMs(value)
  } catch (error) {
    push(issues, field, (error as Error).message)
    return undefined
  }
}

function textOf(issues: Issues, record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field]
  if (typeof value === 'string' && value !== '') return value
  push(issues, field, value === undefined ? 'required: a non-empty string' : `expected a non-empty string, got ${JSON.stringify(value)}`)
  return undefined
}

function pairOf(issues: Issues, record: Record<string, unknown>, catalog: Catalog) {
  const interval = textOf(issues, record, 'interval')
  if (interval !== undefined && !isKnownInterval(interval)) push(issues, 'interval', `interval '${interval}' is not one of 1m, 1h, 1d`)
  const base = textOf(issues, record, 'base')
  const quote = textOf(issues, record, 'quote')
  for (const [side, ticker] of [['base', base], ['quote', quote]] as const) {
    if (ticker !== undefined && !catalog.hasAsset(ticker)) push(issues, side, `unknown asset '${ticker}' (put it first with putAsset)`)
  }
  return { interval: interval as KnownInterval, base: base!, quote: quote! }
}

function exchangeOf(issues: Issues, record: Record<string, unknown>, catalog: Catalog): Exchange | undefined {
  const name = textOf(issues, record, 'exchange')
  if (name === undefined) return undefined
  const exchange = catalog.exchange(name)
  if (!exchange) push(issues, 'exchange', `unknown exchange '${name}' (put it first with putExchange)`)
  return exchange
}

const asRecord = (issues: Issues, value: unknown, what: string): Record<string, unknown> => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  push(issues, undefined, `expected ${what} object, got ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`)
  return {}
}

/** A checked outage: bounds inclusive, whole milliseconds (close times are whole milliseconds). */
export interface CheckedSelector {
  target: { exchange: string } | { method: string }
  interval: KnownInterval
  base: string
  quote: string
  from: number
  to: number
}

export function checkSelector(selector: RemoveSelector | unknown, catalog: Catalog): CheckedSelector | Issues {
  const issues: Issues = []
  const record = asRecord(issues, selector, 'a selector')
  if (issues.length > 0) return issues
  let target: CheckedSelector['target'] | undefined
  if (record.aggregated !== undefined) {
    if (record.aggregated !== true) push(issues, 'aggregated', `expected true (the aggregated series), got ${JSON.stringify(record.aggregated)}`)
    if (record.exchange !== undefined) push(issues, 'exchange', 'give either `exchange` or `aggregated: true`, not both')
    const method = record.method === undefined ? DEFAULT_METHOD : record.method
    if (typeof method !== 'string' || !Object.hasOwn(METHOD_IMPLEMENTATIONS, method)) push(issues, 'method', `unknown method ${JSON.stringify(method)} (known: ${Object.keys(METHOD_IMPLEMENTATIONS).join(', ')})`)
    else target = { method }
  } else {
    if (record.method !== undefined) push(issues, 'method', '`method` goes with `aggregated: true`')
    const exchange = exchangeOf(issues, record, catalog)
    if (exchange) target = { exchange: exchange.name }
  }
  const pair = pairOf(issues, record, catalog)
  const from = instantOf(issues, record, 'from', -Infinity)
  const to = instantOf(issues, record, 'to', Infinity)
  if (from !== undefined && to !== undefined && from > to) push(issues, 'to', `from ${String(record.from)} is after to ${String(record.to)}`)
  if (issues.length > 0) return issues
  // Close times are whole milliseconds: an inclusive fractional bound keeps the same candles rounded inwards.
  return { target: target!, ...pair, from: Math.ceil(from!), to: Math.floor(to!) }
}

/** A checked generate spec: close times on the grid, inside the exchange's lifetime. */
export interface CheckedSpec {
  exchange: string
  interval: KnownInterval
  base: string
  quote: string
  firstClose: number
  lastClose: number
  seed: number
  price: number
  volatility: number
  volumePerMinute: number
}

function positiveOf(issues: Issues, record: Record<string, unknown>, field: string, fallback: number, integer = false): number {
  const value = record[field] ?? fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer ? !Number.isInteger(value) : value <= 0)) {
    push(issues, field, `expected ${integer ? 'an integer' : 'a number > 0'}, got ${JSON.stringify(value)}`)
  }
  return value as number
}

export function checkSpec(spec: GenerateSpec | unknown, catalog: Catalog): CheckedSpec | Issues {
  const issues: Issues = []
  const record = asRecord(issues, spec, 'a generate spec')
  if (issues.length > 0) return issues
  const exchange = exchangeOf(issues, record, catalog)
  const pair = pairOf(issues, record, catalog)
  const from = instantOf(issues, record, 'from')
  const to = instantOf(issues, record, 'to')
  const seed = positiveOf(issues, record, 'seed', 1, true)
  const price = positiveOf(issues, record, 'price', 100)
  const volatility = positiveOf(issues, record, 'volatility', 1)
  const volumePerMinute = positiveOf(issues, record, 'volumePerMinute', 10)
  if (from === undefined || to === undefined || !isKnownInterval(pair.interval)) return issues
  if (from > to) {
    push(issues, 'to', `from ${String(record.from)} is after to ${String(record.to)}`)
    return issues
  }
  const step = INTERVAL_MS[pair.interval]
  const firstClose = ceilTo(from, step)
  const lastClose = floorTo(to, step)
  if (firstClose > lastClose) push(issues, 'to', `no ${pair.interval} close time lies in [${String(record.from)}, ${String(record.to)}]`)
  else if (exchange) {
    const life = lifetimeOf(exchange, pair.interval)
    if (firstClose < life.first) push(issues, 'from', `the first candle opens before the exchange's creation_date ${exchange.creation_date}`)
    if (lastClose > life.last) push(issues, 'to', `the last candle closes after the exchange's closing_date ${exchange.closing_date} (history stops there)`)
  }
  if (issues.length > 0) return issues
  return { exchange: exchange!.name, ...pair, firstClose, lastClose, seed, price, volatility, volumePerMinute }
}
