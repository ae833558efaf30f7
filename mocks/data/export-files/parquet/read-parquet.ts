import { formatTimestamp } from '../../../../src/contract/index.js'
import type { AnyCandle } from '../../../../src/schemas/index.js'
import { RowProblem, candleFromRow } from '../rows/candle-row.js'
import { LoadError } from '../load-error.js'
import { nodeBuiltin } from '../node-builtins.js'

/** The folder keys of a series, Hive style: `exchange=bitstamp/base=BTC/quote=USD/interval=1m` (or `method=...`). */
const SERIES_KEYS = ['base', 'quote', 'interval'] as const

/**
 * A Parquet dataset `market-candles export --format parquet` wrote: a directory with a folder per
 * series, Hive style, and its part files. The series' fields come from the folder names, the rest
 * from the files (read with hyparquet, loaded now: only a Parquet source pays for it). A part left
 * unfinished by a killed export (`.parquet.tmp`) is not data and is skipped, as the export's next
 * run deletes it.
 */
export async function readParquetDataset(dir: string, label: string): Promise<AnyCandle[]> {
  const fs = nodeBuiltin('node:fs')
  const path = nodeBuiltin('node:path')
  let hyparquet: typeof import('hyparquet')
  try {
    hyparquet = await import('hyparquet')
  } catch (error) {
    throw new LoadError(`${label}: reading a Parquet dataset needs the package hyparquet (npm install hyparquet): ${(error as Error).message}`, label)
  }
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')).sort()
  if (files.length === 0) throw new LoadError(`${label}: a directory without .parquet files: not a Parquet dataset of market-candles export`, label)
  const zstd = nodeBuiltin('node:zlib').zstdDecompressSync as ((input: Uint8Array) => Uint8Array) | undefined
  const compressors = zstd === undefined ? {} : { ZSTD: (input: Uint8Array) => new Uint8Array(zstd(input)) }
  const out: AnyCandle[] = []
  for (const file of files) {
    const where = `${label}${path.sep}${file}`
    const series = seriesOf(file.split(/[\\/]/).slice(0, -1), where, label)
    const bytes = fs.readFileSync(path.join(dir, file))
    let rows: Record<string, unknown>[]
    try {
      rows = await hyparquet.parquetReadObjects({
        file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
        compressors,
        parsers: { timestampFromMilliseconds: (ms: bigint) => formatTimestamp(Number(ms)) },
      })
    } catch (error) {
      throw new LoadError(`${where}: not a readable Parquet file (${(error as Error).message})`, label)
    }
    rows.forEach((row, i) => {
      try {
        out.push(candleFromRow({ ...series, ...row }))
      } catch (error) {
        if (error instanceof RowProblem) throw new LoadError(`${where} row ${i + 1}: ${error.message}`, label)
        throw error
      }
    })
  }
  return out
}

/** The series of a part file from its folders' `key=value` names (percent-escaped, as the export writes them). */
function seriesOf(folders: readonly string[], where: string, label: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const folder of folders) {
    const eq = folder.indexOf('=')
    if (eq < 0) continue
    try {
      found[folder.slice(0, eq)] = decodeURIComponent(folder.slice(eq + 1))
    } catch {
      throw new LoadError(`${where}: the folder name ${folder} is not escaped as the export writes it`, label)
    }
  }
  const source = 'exchange' in found ? 'exchange' : 'method' in found ? 'method' : undefined
  const missing = [...(source ? [] : ['exchange= (or method=)']), ...SERIES_KEYS.filter((k) => !(k in found)).map((k) => `${k}=`)]
  if (missing.length > 0) throw new LoadError(`${where}: not in a series folder of the export (exchange=.../base=.../quote=.../interval=...); missing ${missing.join(', ')}`, label)
  return { [source!]: found[source!]!, base: found.base!, quote: found.quote!, interval: found.interval! }
}
