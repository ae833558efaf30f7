import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { seriesLabel, type Series } from '../../plan/series.js'
import type { Kind } from '../columns.js'
import { parquetCodec } from './parquet-codec.js'
import { DEFAULT_PART_ROWS } from '../../flags/part-rows-flag.js'
import { ParquetColumns } from './parquet-columns.js'
import { LAST_CLOSE_KEY, partName, partitionPath, readPartition, type PartitionState } from './parquet-dataset.js'
import { OutputError, plannedSeriesKey, type AnyCandle, type Sink } from '../sink.js'
import { parseTimestamp } from '../../../../src/contract/close-time.js'

// hyparquet-writer is loaded with the sink: only a Parquet export pays for it.
type Writer = typeof import('hyparquet-writer')

/**
 * A Parquet dataset in the directory `out`, partitioned by series (Hive style), Zstandard compressed,
 * in part files of up to `partRows` rows (`--part-rows`, one row group each). A part is written to
 * a temporary file, synced, then renamed: a kill leaves whole parts only, and the rows not yet in
 * a part are fetched again by the next run, which continues after the last close_ts in the
 * footers. An unreadable part (a full disk) is deleted at open and its rows fetched again. Resume
 * reads only part names and footers, never a part's row count: a rerun with another `partRows`
 * continues the same dataset, its new parts of the new size.
 */
export async function openParquet(
  out: string,
  kind: Kind,
  planned: readonly Series[],
  note: (text: string) => void = () => {},
  partRows: number = DEFAULT_PART_ROWS,
): Promise<Sink> {
  let writer: Writer
  try {
    writer = await import('hyparquet-writer')
  } catch (error) {
    throw new OutputError(`Parquet output needs the package hyparquet-writer (npm install hyparquet-writer): ${(error as Error).message}`)
  }
  const states = new Map<string, PartitionState & { dir: string }>()
  for (const series of planned) {
    const dir = join(out, partitionPath(series))
    let state
    try {
      state = readPartition(dir)
    } catch (error) {
      throw new OutputError(`cannot use ${out} as a Parquet dataset: ${(error as Error).message}; choose another --out`)
    }
    for (const path of state.removed) note(`removed ${path}: an unfinished part file; its candles are fetched again`)
    states.set(plannedSeriesKey(series), { ...state, dir })
  }
  const columns = new ParquetColumns(kind, partRows)
  const { codec, compressors } = parquetCodec()
  let current: (PartitionState & { dir: string }) | undefined

  const flush = () => {
    if (current === undefined || columns.length === 0) return
    const last = new Date(columns.lastCloseTs).toISOString().replace('.000Z', 'Z')
    const bytes = new Uint8Array(
      writer.parquetWriteBuffer({
        columnData: columns.take() as Parameters<Writer['parquetWriteBuffer']>[0]['columnData'],
        schema: columns.schema,
        codec,
        compressors,
        rowGroupSize: partRows,
        kvMetadata: [{ key: LAST_CLOSE_KEY, value: last }],
        createdBy: 'market-candles',
      }),
    )
    const path = join(current.dir, partName(current.nextPart))
    try {
      const fd = openSync(`${path}.tmp`, 'w')
      try {
        for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(`${path}.tmp`, path)
    } catch (error) {
      throw new OutputError(`writing ${path} failed: ${(error as Error).message}`)
    }
    current.nextPart++
    current.lastStored = parseTimestamp(last)
  }

  return {
    lastStored: (series) => states.get(plannedSeriesKey(series))?.lastStored,
    write(series, candles: readonly AnyCandle[]) {
      const state = states.get(plannedSeriesKey(series))
      if (state === undefined) throw new OutputError(`${seriesLabel(series)} was not planned`)
      if (state !== current) {
        flush()
        current = state
      }
      for (let i = 0; i < candles.length; ) {
        i = columns.add(candles, i)
        if (columns.full) flush()
      }
    },
    close: async () => flush(),
  }
}
