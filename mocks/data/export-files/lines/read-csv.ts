import { formatTimestamp, parseTimestamp } from '../../../../src/contract/index.js'
import type { AnyCandle } from '../../../../src/schemas/index.js'
import { RowProblem, toExchanges, toFlag, toNumber, toText } from '../rows/candle-row.js'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, type Kind } from '../rows/columns.js'
import { parseCsvLine } from './csv-line.js'
import { InternedText } from '../rows/interned-text.js'
import { LoadError } from '../load-error.js'
import { forEachLineOf } from './read-lines.js'

/** The candles of a CSV file, and the line each starts on (a quoted line break makes a record span lines). */
export interface CsvCandles {
  candles: AnyCandle[]
  lineOf(index: number): number
}

/**
 * The columns of a header: its kind (an `exchange` column, or a `method` one) and where each of the
 * kind's columns stands. `flag` may be left out (no flag); columns a candle does not have are ignored.
 */
function columnsOf(header: string, label: string): { kind: Kind; at: number[] } {
  const names = parseCsvLine(header.replace(/^\uFEFF/, ''))
  const kind: Kind | undefined = names.includes('exchange') ? 'exchange' : names.includes('method') ? 'aggregated' : undefined
  const columns = kind === 'aggregated' ? AGGREGATED_COLUMNS : EXCHANGE_COLUMNS
  const at = columns.map((c) => names.indexOf(c))
  const missing = columns.filter((c, i) => at[i]! < 0 && c !== 'flag')
  if (kind === undefined || missing.length > 0) {
    throw new LoadError(
      `${label}: not a CSV file of market-candles export: its header is ${JSON.stringify(header.slice(0, 200))}${kind === undefined ? '' : `, without ${missing.join(', ')}`}; expected the columns\n  ${EXCHANGE_COLUMNS.join(',')}\nor\n  ${AGGREGATED_COLUMNS.join(',')}\n(in any order; flag may be left out, other columns are ignored)`,
      label,
    )
  }
  return { kind, at }
}

/**
 * A CSV file of candles: what `market-candles export` wrote, or another tool with the same columns
 * (docs/export.md). The header names the kind (exchange or aggregated columns), then one candle
 * per record (RFC 4180: a quoted field may hold line breaks, quotes and commas); close_ts in any
 * ISO 8601 UTC form. Throws a {@link LoadError} naming the file and line of the first record it
 * cannot read.
 */
export function readCsv(path: string, label: string): CsvCandles {
  const out: AnyCandle[] = []
  // Where records stop being one line each: from candle atIndex[k] on, lines are shifted by shift[k].
  const atIndex: number[] = []
  const shift: number[] = []
  let kind: Kind | undefined
  let at: number[] = []
  let width = 0
  const texts = Array.from({ length: 6 }, () => new InternedText())
  const flags = new InternedText()
  let exchangesText: string | undefined
  let exchanges: string[] = []
  forEachLineOf(
    path,
    label,
    (line, lineNo) => {
      if (kind === undefined) {
        ;({ kind, at } = columnsOf(line, label))
        width = parseCsvLine(line).length
        return
      }
      if (line === '') throw new RowProblem('an empty line (the export writes none)')
      if (lineNo !== out.length + 2 + (shift.at(-1) ?? 0)) atIndex.push(out.length), shift.push(lineNo - out.length - 2)
      let f: string[]
      try {
        f = parseCsvLine(line)
      } catch (error) {
        throw new RowProblem((error as Error).message)
      }
      if (f.length !== width) throw new RowProblem(`${f.length} fields, expected ${width}`)
      const field = (i: number) => f[at[i]!]
      // A field cut from the line would keep the chunk read alive (see InternedText): close_ts is
      // written anew in the canonical form when it is a time, otherwise kept for putCandles to judge.
      let closeTs = field(4)!
      const ms = parseTimestamp(closeTs)
      if (!Number.isNaN(ms)) closeTs = formatTimestamp(ms)
      const common = {
        interval: texts[1]!.of(toText('interval', field(1))),
        base: texts[2]!.of(toText('base', field(2))),
        quote: texts[3]!.of(toText('quote', field(3))),
        close_ts: closeTs,
        open: toNumber('open', field(5)),
        high: toNumber('high', field(6)),
        low: toNumber('low', field(7)),
        close: toNumber('close', field(8)),
        base_volume: toNumber('base_volume', field(9)),
        quote_volume: toNumber('quote_volume', field(10)),
      }
      if (kind === 'exchange') {
        out.push({
          exchange: texts[0]!.of(toText('exchange', field(0))),
          ...common,
          source_provider: texts[4]!.of(toText('source_provider', field(11))),
          source_channel: texts[5]!.of(toText('source_channel', field(12))),
          flag: flagOf(flags, field(13)),
        })
      } else {
        // Runs of candles with the same contributors share one array.
        if (field(11) !== exchangesText) {
          exchanges = toExchanges(field(11))
          exchangesText = field(11)
        }
        out.push({ method: texts[0]!.of(toText('method', field(0))), ...common, exchanges, flag: flagOf(flags, field(12)) })
      }
    },
    true,
  )
  if (kind === undefined) throw new LoadError(`${label}: empty, not a CSV file of market-candles export (it starts with a header line)`, label)
  return {
    candles: out,
    lineOf(index) {
      let k = atIndex.length - 1
      while (k >= 0 && atIndex[k]! > index) k--
      return index + 2 + (k < 0 ? 0 : shift[k]!)
    },
  }
}

/** A column left out of the header (`flag`) reads as no flag. */
function flagOf(flags: InternedText, text: string | undefined): string | null {
  const flag = toFlag(text)
  return flag === null ? null : flags.of(flag)
}
