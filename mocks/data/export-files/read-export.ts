import type { LoadSource } from '../arranged-data.js'
import type { AnyCandle } from '../../../src/schemas/index.js'
import { RowProblem, candleFromRow } from './rows/candle-row.js'
import { LoadError } from './load-error.js'
import { nodeBuiltin } from './node-builtins.js'
import { readCsv } from './lines/read-csv.js'
import { readJsonLines } from './lines/read-jsonl.js'
import { readParquetDataset } from './parquet/read-parquet.js'
import { readSqlite } from './sqlite/read-sqlite.js'
import { readSqliteColumns } from './sqlite/read-sqlite-columns.js'
import type { ExchangeColumns } from '../overlay/exchange-columns.js'

/** The formats by file name: what `market-candles export --out` takes. */
const BY_EXTENSION: Record<string, 'sqlite' | 'csv' | 'jsonl'> = { '.sqlite': 'sqlite', '.db': 'sqlite', '.csv': 'csv', '.jsonl': 'jsonl' }

/**
 * The candles of a source `load()` takes: a file `market-candles export` wrote (SQLite `.sqlite` /
 * `.db`, `.csv`, `.jsonl`, or a Parquet dataset's directory; a path or a `file:` URL), or rows in
 * memory, shaped like API candles or like the export's rows (CSV text, `exchanges` as JSON text, an
 * empty flag). Exchange and aggregated candles alike. Values are converted, not judged: the rules
 * of a candle are `putCandles`' to check.
 *
 * Throws a {@link LoadError} naming the file and line (or row) for a source it cannot read: a
 * missing file, a name of no known format, a file the export did not write, a corrupt row. Reading
 * a file needs Node (22.3 or newer; SQLite 22.13), Bun or Deno; in a browser pass rows.
 *
 * @example
 * const candles = await readExport('btc.sqlite')
 * const same = await readExport([{ exchange: 'bitstamp', interval: '1d', base: 'BTC', quote: 'USD', close_ts: '2025-01-02T00:00:00Z', open: '1', high: '2', low: '1', close: '2', base_volume: '3', quote_volume: '4.5', source_provider: 'p', source_channel: 'rest', flag: '' }])
 */
export async function readExport(source: LoadSource): Promise<AnyCandle[]> {
  return (await readExportFile(source)).candles
}

/** What {@link readExportFile} read: the candles, and where each came from, for messages. */
export interface ReadExport {
  candles: AnyCandle[]
  /** `btc.csv line 7: bitstamp BTC/USD 1d 2025-01-02T00:00:00Z`; undefined for rows in memory (their index names them). */
  origin(index: number): string | undefined
}

/** {@link readExport}, with the origin of each candle: a later check of a candle names its file and line. */
export async function readExportFile(source: LoadSource): Promise<ReadExport> {
  if (Array.isArray(source)) return { candles: fromRows(source), origin: () => undefined }
  if (typeof source !== 'string' && !(source instanceof URL)) {
    throw new LoadError(`load() takes a file path, a file: URL or an array of rows, got ${source === null ? 'null' : typeof source}`)
  }
  const path = filePath(source)
  const fs = nodeBuiltin('node:fs')
  let stat
  try {
    stat = fs.statSync(path)
  } catch (error) {
    const code = (error as { code?: string }).code
    throw new LoadError(`${path}: cannot read it (${code === 'ENOENT' ? 'no such file or directory' : (code ?? (error as Error).message)})`, path)
  }
  const ext = nodeBuiltin('node:path').extname(path).toLowerCase()
  // A directory is a Parquet dataset (the export's `--out` names one whatever its name).
  const format = stat.isDirectory() ? 'parquet' : BY_EXTENSION[ext]
  if (format === undefined) {
    throw new LoadError(`${path}: cannot tell its format from the name: load() reads what market-candles export writes, .sqlite or .db (SQLite), .csv, .jsonl, or a Parquet dataset's directory`, path)
  }
  try {
    if (format === 'parquet') return withOrigins(await readParquetDataset(path, path), path, undefined)
    if (format === 'sqlite') return withOrigins(readSqlite(path, path), path, undefined)
    if (format === 'csv') {
      const { candles, lineOf } = readCsv(path, path)
      return withOrigins(candles, path, lineOf)
    }
    // The export writes no empty lines (the reader refuses them): candle i is on line i + 1.
    return withOrigins(readJsonLines(path, path), path, (i) => i + 1)
  } catch (error) {
    if (error instanceof LoadError) throw error
    throw new LoadError(`${path}: ${(error as Error).message}`, path)
  }
}

/**
 * The fast path of `load`: a SQLite file's exchange series as columns, or undefined for any other
 * source or anything the columns do not take as it is ({@link readExportFile} then reads it and
 * names the problem).
 */
export function readExportColumns(source: LoadSource): ExchangeColumns[] | undefined {
  if (typeof source !== 'string' && !(source instanceof URL)) return undefined
  let path: string
  try {
    path = filePath(source)
    if (BY_EXTENSION[nodeBuiltin('node:path').extname(path).toLowerCase()] !== 'sqlite' || !nodeBuiltin('node:fs').statSync(path).isFile()) return undefined
  } catch {
    return undefined
  }
  return readSqliteColumns(path)
}

/** A path from a string (a `file:` URL as text too) or a URL object. */
function filePath(source: string | URL): string {
  // `file:///...` and `https://...` are URLs; `C:\data\x.csv` is a path.
  const url = source instanceof URL ? source : /^(file:|[a-z][a-z0-9+.-]+:\/\/)/i.test(source) ? new URL(source) : undefined
  if (url === undefined) {
    if (source === '') throw new LoadError('load() needs a file name, got an empty string')
    return source as string
  }
  if (url.protocol !== 'file:') throw new LoadError(`load() reads local files: ${url.href} is not a file: URL (download it first)`)
  return nodeBuiltin('node:url').fileURLToPath(url)
}

function fromRows(rows: readonly unknown[]): AnyCandle[] {
  const out = new Array<AnyCandle>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    try {
      out[i] = candleFromRow(rows[i])
    } catch (error) {
      if (error instanceof RowProblem) throw new LoadError(`rows[${i}]: ${error.message}`)
      throw error
    }
  }
  return out
}

function withOrigins(candles: AnyCandle[], path: string, lineOf: ((index: number) => number) | undefined): ReadExport {
  return {
    candles,
    origin(index) {
      const c = candles[index]
      if (c === undefined) return path
      const series = `${'exchange' in c ? c.exchange : c.method} ${c.base}/${c.quote} ${c.interval} ${c.close_ts}`
      return lineOf === undefined ? `${path}: ${series}` : `${path} line ${lineOf(index)}: ${series}`
    },
  }
}
