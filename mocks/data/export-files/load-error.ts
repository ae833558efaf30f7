import { DataError } from '../data-error.js'

/**
 * Why `load()` cannot read a source: a missing or unknown file, a file `market-candles export` did
 * not write, or a row it cannot convert. A {@link DataError} (nothing changed, so `instanceof
 * DataError` catches it too), whose message names the file and the line (or row) at fault, and
 * whose `file` names the file. A candle that reads fine but breaks a rule of the contract is a plain
 * `DataError` naming the row.
 *
 * @example
 * import { LoadError } from 'market-candles/mocks'
 *
 * try {
 *   await service.data.load('candles.csv')
 * } catch (error) {
 *   if (error instanceof LoadError) console.error(error.file, error.message) // candles.csv candles.csv line 7: open "abc" is not a number
 * }
 */
export class LoadError extends DataError {
  override name = 'LoadError'
  /** The file (or directory) read; undefined for rows given in memory. */
  readonly file: string | undefined

  constructor(message: string, file?: string) {
    super('load', [{ index: 0, message }], 'source')
    // The message is the reason alone: it already names the file and line.
    this.message = message
    this.file = file
  }
}
