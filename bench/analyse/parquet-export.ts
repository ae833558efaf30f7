/**
 * Section analyse (b): `market-candles export` into Parquet where the network is not the limit
 * (`serve --no-rate-limit`, `--rate-limit off`), beside the same export into SQLite and CSV, in
 * alternating rounds; candles/s from the first series start to the export done (the Parquet sink
 * writes its last part at close), and the size on disk of each output for the same candles.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportArgs, inChild, withServer } from '../export/export.js'
import { fullPageRange } from '../support/walk-range.js'

const PAGES = 400
const ROUNDS = 3
const FORMATS = ['sqlite', 'parquet', 'csv'] as const
type Format = (typeof FORMATS)[number]

export interface ParquetExportBench {
  candles: number
  rates: Record<Format, number[]>
  /** Candles per second of the export process's CPU time (all its threads), output closed. */
  cpuRates: Record<Format, number[]>
  /** Bytes on disk after the export: the SQLite file (and its WAL), the CSV file, the Parquet folder. */
  bytes: Record<Format, number>
  complete: boolean
}

function sizeOf(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false })
  if (s === undefined) return 0
  if (!s.isDirectory()) return s.size
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0)
}

export async function measureParquetExport(): Promise<ParquetExportBench> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-parquet-'))
  try {
    return await withServer('reference server (no rate limit)', ['--no-rate-limit'], async (server) => {
      const range = fullPageRange(Date.UTC(2022, 0, 1), PAGES)
      const rates: Record<Format, number[]> = { sqlite: [], parquet: [], csv: [] }
      const cpuRates: Record<Format, number[]> = { sqlite: [], parquet: [], csv: [] }
      const bytes: Record<Format, number> = { sqlite: 0, parquet: 0, csv: 0 }
      let complete = true
      for (let round = 0; round < ROUNDS; round++) {
        for (const format of FORMATS) {
          const out = join(dir, `${format}-${round}${format === 'parquet' ? '' : `.${format}`}`)
          const run = await inChild('export', { baseUrl: server.url, argv: exportArgs(range, out, ['--rate-limit', 'off', '--format', format]) })
          complete &&= run.candles === range.candles && run.exitCode === 0
          rates[format].push(run.candles / ((run.doneSpanMs ?? Number.NaN) / 1000))
          cpuRates[format].push(run.candles / ((run.doneCpuMs ?? Number.NaN) / 1000))
          bytes[format] = sizeOf(out) + sizeOf(`${out}-wal`)
        }
      }
      return { candles: range.candles, rates, cpuRates, bytes, complete }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
