import { formatTimestamp } from '../../../../src/contract/index.js'
import type { AnyCandle } from '../../../../src/schemas/index.js'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, PRICE_COLUMNS, type Kind } from './columns.js'

/*
 * One row as a candle: an API candle, or a row as an export stores it (CSV text, SQLite's JSON
 * text of `exchanges`, an empty flag, a Parquet timestamp). Values are converted, never judged:
 * whether a candle is valid (low <= high, on the grid) is `putCandles`' rule, checked there.
 */

/** Why a value cannot be converted; the reader adds the file and line. */
export class RowProblem extends Error {}

const NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/

/** A price or volume: a number, or the text of one (CSV). `''` is not 0. */
export function toNumber(field: string, value: unknown): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value
  } else if (typeof value === 'string' && NUMBER.test(value)) {
    const n = Number(value)
    if (Number.isFinite(n)) return n
  }
  throw problem(field, value, 'a number')
}

/** A required text field (exchange, interval, pair, source): a non-empty string. */
export function toText(field: string, value: unknown): string {
  if (typeof value === 'string' && value !== '') return value
  throw problem(field, value, 'a non-empty string')
}

/** `close_ts`: the service's text as it is, or a `Date` / epoch ms (Parquet, a database's driver) formatted as the service writes it. */
export function toCloseTs(value: unknown): string {
  if (typeof value === 'string' && value !== '') return value
  if (value instanceof Date && !Number.isNaN(value.getTime())) return formatTimestamp(value.getTime())
  if (typeof value === 'number' && Number.isSafeInteger(value)) return formatTimestamp(value)
  if (typeof value === 'bigint') return formatTimestamp(Number(value))
  throw problem('close_ts', value, 'a datetime')
}

/** `flag`: null, absent and `''` (CSV's empty field) are no flag. */
export function toFlag(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'string') return value
  throw problem('flag', value, 'a string or null')
}

/** `exchanges`: an array of names, or its JSON text (CSV, SQLite). */
export function toExchanges(value: unknown): string[] {
  let list = value
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value)
    } catch {
      throw problem('exchanges', value, 'a JSON array of names')
    }
  }
  if (Array.isArray(list) && list.every((e) => typeof e === 'string')) return list as string[]
  throw problem('exchanges', value, 'an array of names')
}

function problem(field: string, value: unknown, what: string): RowProblem {
  return new RowProblem(value === undefined ? `${field} is missing` : `${field} ${describe(value)} is not ${what}`)
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)
  if (typeof value === 'bigint') return `${value}n`
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** The kind of a row: an `exchange` makes an exchange candle, `method` (or `exchanges`) an aggregated one. */
export function kindOf(row: Record<string, unknown>): Kind {
  // `exchange: undefined` is no exchange, as putCandles reads it.
  if (row.exchange !== undefined) return 'exchange'
  if ('method' in row || 'exchanges' in row) return 'aggregated'
  throw new RowProblem('neither an exchange candle (it has `exchange`) nor an aggregated one (it has `method` and `exchanges`)')
}

/**
 * A row object as a candle, the fields written in the API's order. Fields a candle does not have
 * are ignored, as a client ignores what the interface does not list (D13): a file another tool
 * wrote may carry an id or a timestamp of its own. A misspelt field still shows: the field it
 * stands for is missing.
 */
export function candleFromRow(row: unknown): AnyCandle {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) throw new RowProblem(`expected a candle object, got ${Array.isArray(row) ? 'an array' : describe(row)}`)
  const r = row as Record<string, unknown>
  const kind = kindOf(r)
  const [open, high, low, close, baseVolume, quoteVolume] = PRICE_COLUMNS.map((f) => toNumber(f, r[f])) as [number, number, number, number, number, number]
  const series = { interval: toText('interval', r.interval), base: toText('base', r.base), quote: toText('quote', r.quote) }
  const prices = { close_ts: toCloseTs(r.close_ts), open, high, low, close, base_volume: baseVolume, quote_volume: quoteVolume }
  if (kind === 'exchange') {
    return {
      exchange: toText('exchange', r.exchange),
      ...series,
      ...prices,
      source_provider: toText('source_provider', r.source_provider),
      source_channel: toText('source_channel', r.source_channel),
      flag: toFlag(r.flag),
    }
  }
  return { method: toText('method', r.method), ...series, ...prices, exchanges: toExchanges(r.exchanges), flag: toFlag(r.flag) }
}
