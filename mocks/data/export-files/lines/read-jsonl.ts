import type { AnyCandle } from '../../../../src/schemas/index.js'
import { candleFromRow } from '../rows/candle-row.js'
import { LoadError } from '../load-error.js'
import { forEachLineOf } from './read-lines.js'

/**
 * A JSON Lines file `market-candles export` wrote: one API candle object per line, exchange or
 * aggregated. Throws a {@link LoadError} naming the file and line of the first line it cannot read.
 */
export function readJsonLines(path: string, label: string): AnyCandle[] {
  const out: AnyCandle[] = []
  forEachLineOf(path, label, (line, lineNo) => {
    if (line === '') throw new LoadError(`${label} line ${lineNo}: an empty line (the export writes none)`, label)
    let row: unknown
    try {
      row = JSON.parse(line)
    } catch (error) {
      throw new LoadError(`${label} line ${lineNo}: not JSON (${(error as Error).message}); an unfinished last line is cut by the export's next run`, label)
    }
    out.push(candleFromRow(row))
  })
  return out
}
