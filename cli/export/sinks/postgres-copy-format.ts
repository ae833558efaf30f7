import type { Kind } from './columns.js'
import type { AnyCandle } from './sink.js'

// COPY's text format: tab between fields, newline after a row, \N for NULL; a backslash, tab,
// newline or carriage return inside a value is written as a backslash escape.
const SPECIAL = /[\\\t\n\r]/
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }
const escapeRe = /[\\\t\n\r]/g

function text(value: string): string {
  return SPECIAL.test(value) ? value.replace(escapeRe, (c) => ESCAPES[c]!) : value
}

// A text[] literal: every element double-quoted, its quotes and backslashes escaped.
function textArray(values: readonly string[]): string {
  let out = '{'
  for (let i = 0; i < values.length; i++) out += (i === 0 ? '"' : ',"') + values[i]!.replace(/["\\]/g, '\\$&') + '"'
  return text(out + '}')
}

/**
 * One page as COPY text rows, columns in EXCHANGE_COLUMNS / AGGREGATED_COLUMNS order. Numbers are
 * JavaScript's shortest round-trip text, which PostgreSQL reads back into the same double;
 * close_ts is the service's ISO 8601 text, read as timestamptz.
 */
export function copyRows(kind: Kind, candles: readonly AnyCandle[]): string {
  let out = ''
  if (kind === 'exchange') {
    for (const c of candles as ReadonlyArray<Extract<AnyCandle, { exchange: string }>>) {
      out +=
        `${text(c.exchange)}\t${text(c.interval)}\t${text(c.base)}\t${text(c.quote)}\t${c.close_ts}\t` +
        `${c.open}\t${c.high}\t${c.low}\t${c.close}\t${c.base_volume}\t${c.quote_volume}\t` +
        `${text(c.source_provider)}\t${text(c.source_channel)}\t${c.flag == null ? '\\N' : text(c.flag)}\n`
    }
  } else {
    for (const c of candles as ReadonlyArray<Extract<AnyCandle, { method: string }>>) {
      out +=
        `${text(c.method)}\t${text(c.interval)}\t${text(c.base)}\t${text(c.quote)}\t${c.close_ts}\t` +
        `${c.open}\t${c.high}\t${c.low}\t${c.close}\t${c.base_volume}\t${c.quote_volume}\t` +
        `${textArray(c.exchanges)}\t${c.flag == null ? '\\N' : text(c.flag)}\n`
    }
  }
  return out
}
