import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parquetMetadata } from 'hyparquet'
import type { Series } from '../../plan/series.js'
import { parseTimestamp } from '../../../../src/contract/close-time.js'

/** The key-value metadata of a part file that names its last close_ts: resume reads only footers. */
export const LAST_CLOSE_KEY = 'market_candles.last_close_ts'

const PART = /^part-(\d{6})\.parquet$/

// Hive style keeps `/` and `=` out of a folder name: they, `%` and anything unusual become %XX.
const escape = (value: string) => value.replace(/[^A-Za-z0-9._~-]/g, (ch) => encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))

/** The series' folder in the dataset, Hive style: `exchange=bitstamp/base=BTC/quote=USD/interval=1m`. */
export function partitionPath(series: Series): string {
  const source = series.kind === 'exchange' ? `exchange=${escape(series.source!)}` : `method=${escape(series.source!)}`
  return join(source, `base=${escape(series.base)}`, `quote=${escape(series.quote)}`, `interval=${escape(series.interval)}`)
}

export const partName = (n: number): string => `part-${String(n).padStart(6, '0')}.parquet`

/** What a series' folder holds: where it ends and the next part's number; torn files removed. */
export interface PartitionState {
  lastStored: number | undefined
  nextPart: number
  /** Part files found unreadable (a write cut by a kill or a full disk) and deleted: their rows are fetched again. */
  removed: string[]
}

// A part file's footer: the last 8 bytes give the metadata length, then the metadata before them.
function readFooterLast(path: string): number {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    if (size < 12) throw new Error('too short')
    const tail = Buffer.alloc(8)
    readSync(fd, tail, 0, 8, size - 8)
    const length = tail.readUInt32LE(0)
    if (tail.toString('latin1', 4) !== 'PAR1' || length > size - 12) throw new Error('no footer')
    const footer = Buffer.alloc(length + 8)
    readSync(fd, footer, 0, footer.length, size - footer.length)
    const meta = parquetMetadata(footer)
    const last = meta.key_value_metadata?.find((kv) => kv.key === LAST_CLOSE_KEY)?.value
    const ms = last === undefined ? Number.NaN : parseTimestamp(last)
    if (Number.isNaN(ms)) throw new Error(`no ${LAST_CLOSE_KEY}`)
    return ms
  } finally {
    closeSync(fd)
  }
}

/** Reads a series' folder (creating it): the last stored close_ts from the part files' footers. */
export function readPartition(dir: string): PartitionState {
  mkdirSync(dir, { recursive: true })
  const state: PartitionState = { lastStored: undefined, nextPart: 0, removed: [] }
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (name.endsWith('.parquet.tmp')) {
      rmSync(path, { force: true }) // a part being written when the run was killed
      state.removed.push(path)
      continue
    }
    const m = PART.exec(name)
    if (!m) continue
    state.nextPart = Math.max(state.nextPart, Number(m[1]) + 1)
    try {
      const last = readFooterLast(path)
      state.lastStored = Math.max(state.lastStored ?? -Infinity, last)
    } catch {
      rmSync(path, { force: true })
      state.removed.push(path)
    }
  }
  return state
}
