import type { LoadSource } from './data-control.js'
import { DataError } from './data-error.js'

/**
 * The rows of a `load` source: rows in memory as they are. A path or URL of a file `market-candles
 * export` wrote goes to the export-file readers (mocks/data/export-files/, `readExport`) once they
 * are merged: replace the `throw` below with
 * `return (await import('../data/export-files/index.js')).readExport(source)` (imported on demand:
 * the core also runs in browsers, where the readers' Node modules do not load).
 */
export async function rowsOf(source: LoadSource): Promise<readonly unknown[]> {
  if (typeof source === 'string' || source instanceof URL) {
    throw new DataError('load', [{ index: 0, message: `reading files (${String(source)}) is not available in this build: pass the rows` }], 'source')
  }
  if (!Array.isArray(source)) throw new DataError('load', [{ index: 0, message: `expected a file path, a URL or an array of rows, got ${source === null ? 'null' : typeof source}` }], 'source')
  return source
}
