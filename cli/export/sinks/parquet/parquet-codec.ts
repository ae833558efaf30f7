import * as zlib from 'node:zlib'

/** A Parquet compression codec and, unless the writer has it built in, its compressor. */
export interface ParquetCodec {
  codec: 'ZSTD' | 'SNAPPY'
  compressors: Record<string, (input: Uint8Array) => Uint8Array>
}

/**
 * Zstandard at level 1 through node:zlib (native; Node 22.15 and newer): half the CPU time of
 * hyparquet-writer's own Snappy and files 13 % smaller (measured on 100,000 1m candles). Older Node
 * versions get Snappy. Every common reader (DuckDB, pyarrow, polars, Spark) reads both.
 */
export function parquetCodec(): ParquetCodec {
  const zstd = (zlib as { zstdCompressSync?: (input: Uint8Array, options?: object) => Buffer }).zstdCompressSync
  if (typeof zstd !== 'function') return { codec: 'SNAPPY', compressors: {} }
  const options = { params: { [(zlib.constants as Record<string, number>).ZSTD_c_compressionLevel!]: 1 } }
  return { codec: 'ZSTD', compressors: { ZSTD: (input) => new Uint8Array(zstd(input, options)) } }
}
