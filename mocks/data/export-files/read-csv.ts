import { formatTimestamp } from '../../../src/contract/index.js'
import type { ArrangedCandle } from '../arranged-data.js'
import { RowProblem, toExchanges, toFlag, toNumber, toText } from './candle-row.js'
import { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, type Kind } from './columns.js'
import { parseCsvLine } from './csv-line.js'
import { InternedText } from './interned-text.js'
import { LoadError } from './load-error.js'
import { forEachLineOf } from './read-lines.js'

const HEADERS: Record<string, Kind> = { [EXCHANGE_COLUMNS.join(',')]: 'exchange', [AGGREGATED_COLUMNS.join(',')]: 'aggregated' }
const CANONICAL_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/

/**
 * A CSV file `market-candles export` wrote: its header names the kind (exchange or aggregated
 * columns, docs/export.md), then one candle per line. Throws a {@link LoadError} naming the file
 * and line of the first line it cannot read.
 */
export function readCsv(path: string, label: string): ArrangedCandle[] {
  const out: ArrangedCandle[] = []
  let kind: Kind | undefined
  let width = 0
  const texts = Array.from({ length: 6 }, () => new InternedText())
  const flags = new InternedText()
  let exchangesText: string | undefined
  let exchanges: string[] = []
  forEachLineOf(path, label, (line) => {
    if (kind === undefined) {
      kind = HEADERS[line.replace(/^\uFEFF/, '')]
      if (kind === undefined) {
        throw new LoadError(
          `${label}: not a CSV file of market-candles export: its header is ${JSON.stringify(line.slice(0, 200))}, expected\n  ${EXCHANGE_COLUMNS.join(',')}\nor\n  ${AGGREGATED_COLUMNS.join(',')}`,
          label,
        )
      }
      width = kind === 'exchange' ? EXCHANGE_COLUMNS.length : AGGREGATED_COLUMNS.length
      return
    }
    if (line === '') throw new RowProblem('an empty line (the export writes none)')
    let f: string[]
    try {
      f = parseCsvLine(line)
    } catch (error) {
      throw new RowProblem((error as Error).message)
    }
    if (f.length !== width) throw new RowProblem(`${f.length} fields, expected ${width}`)
    // A field cut from the line would keep the chunk read alive (see InternedText): close_ts is
    // written anew when it has the service's form, otherwise kept for putCandles to judge.
    let closeTs = f[4]!
    if (CANONICAL_TS.test(closeTs)) {
      const ms = Date.parse(closeTs)
      if (!Number.isNaN(ms)) closeTs = formatTimestamp(ms)
    }
    const common = {
      interval: texts[1]!.of(toText('interval', f[1])),
      base: texts[2]!.of(toText('base', f[2])),
      quote: texts[3]!.of(toText('quote', f[3])),
      close_ts: closeTs,
      open: toNumber('open', f[5]),
      high: toNumber('high', f[6]),
      low: toNumber('low', f[7]),
      close: toNumber('close', f[8]),
      base_volume: toNumber('base_volume', f[9]),
      quote_volume: toNumber('quote_volume', f[10]),
    }
    if (kind === 'exchange') {
      out.push({
        exchange: texts[0]!.of(toText('exchange', f[0])),
        ...common,
        source_provider: texts[4]!.of(toText('source_provider', f[11])),
        source_channel: texts[5]!.of(toText('source_channel', f[12])),
        flag: flagOf(flags, f[13]!),
      })
    } else {
      // Runs of candles with the same contributors share one array.
      if (f[11] !== exchangesText) {
        exchanges = toExchanges(f[11])
        exchangesText = f[11]
      }
      out.push({ method: texts[0]!.of(toText('method', f[0])), ...common, exchanges, flag: flagOf(flags, f[12]!) })
    }
  })
  if (kind === undefined) throw new LoadError(`${label}: empty, not a CSV file of market-candles export (it starts with a header line)`, label)
  return out
}

function flagOf(flags: InternedText, text: string): string | null {
  const flag = toFlag(text)
  return flag === null ? null : flags.of(flag)
}
