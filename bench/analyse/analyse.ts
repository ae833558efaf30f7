/**
 * Section `analyse`: (a) resample over 10 M 1m candles in memory (bench/analyse/resample-speed.ts) and
 * (b) export into Parquet beside SQLite and CSV (bench/analyse/parquet-export.ts), measured in one run.
 */
import { fileURLToPath } from 'node:url'
import { measureParquetExport, type ParquetExportBench } from './parquet-export.js'
import { HEAP_FLAT_MB, RESAMPLE_CANDLES, RESAMPLE_TARGET_PER_S, measureResampleSpeed, type ResampleSpeed } from './resample-speed.js'
import { runChildForResult } from '../support/child-result.js'
import { fmt, median, withSpread } from '../support/stats.js'
import { verdictOfOne, verdictOfRuns, type BenchRow } from '../support/table.js'

/** Resample over the 10 M candles held in one array: source candles per second of wall and CPU time, per round. */
interface InMemoryResample {
  wall: number[]
  cpu: number[]
}

const IN_MEMORY_CHILD = fileURLToPath(new URL('./resample-array-child.ts', import.meta.url))

export interface AnalyseBench {
  resample: ResampleSpeed
  inMemory: InMemoryResample
  parquet: ParquetExportBench
  /** Parquet candles/s over SQLite candles/s, round by round: wall time, and CPU time. */
  ratios: number[]
  cpuRatios: number[]
  rows: BenchRow[]
  pass: boolean
}

const M = (xs: number[]) => xs.map((x) => x / 1e6)
const K = (xs: number[]) => xs.map((x) => x / 1e3)
const MB = (n: number) => `${fmt(n / 2 ** 20, 1)} MB`

export async function measureAnalyse(): Promise<AnalyseBench> {
  const resample = measureResampleSpeed()
  // 10 M candle objects take about 3 GB: a child of its own with room for them.
  const inMemory = await runChildForResult<InMemoryResample>(IN_MEMORY_CHILD, [], 600_000, undefined, ['--max-old-space-size=8192'])
  const parquet = await measureParquetExport()
  const ratios = parquet.rates.parquet.map((p, i) => p / parquet.rates.sqlite[i]!)
  const cpuRatios = parquet.cpuRates.parquet.map((p, i) => p / parquet.cpuRates.sqlite[i]!)
  const rows: BenchRow[] = [
    {
      figure: `analyse a resample 10 M 1m candles in memory (one array) -> 15m, per second of CPU time: ${withSpread(M(inMemory.cpu), 1)} M source candles/s; of wall time: ${withSpread(M(inMemory.wall), 1)} M/s`,
      goal: `>= ${RESAMPLE_TARGET_PER_S / 1e6} M/s`,
      verdict: verdictOfRuns(inMemory.cpu, RESAMPLE_TARGET_PER_S),
    },
    {
      figure: `analyse a resample 10 M 1m candles made by a generator as they are consumed (making them included), per second of CPU time: ${withSpread(M(resample.totalCpu), 1)} M source candles/s (resample's own share: ${withSpread(M(resample.ownCpu.filter(Number.isFinite)), 1)} M/s)`,
      goal: '',
      verdict: 'info',
    },
    {
      figure: `analyse a the same per second of wall time (waits for a core included): ${withSpread(M(resample.total), 1)} M/s`,
      goal: '',
      verdict: 'info',
    },
    {
      figure: `analyse a heap after a full GC, at 10 M source candles - at 1 M: ${fmt(resample.heapMb.growth, 2)} MB`,
      goal: `<= ${HEAP_FLAT_MB} MB (flat)`,
      verdict: verdictOfOne(resample.heapMb.growth, HEAP_FLAT_MB, true),
    },
    {
      figure: `analyse b export, no rate limit, ${parquet.candles / 1000}k candles: Parquet ${withSpread(K(parquet.rates.parquet), 0)}k/s, SQLite ${withSpread(K(parquet.rates.sqlite), 0)}k/s; Parquet / SQLite ${withSpread(ratios, 2)}`,
      goal: '>= 1.00 (Parquet / SQLite)',
      verdict: parquet.complete ? verdictOfRuns(ratios, 1) : 'not measured',
    },
    {
      figure: `analyse b the same per second of the export's CPU time: Parquet ${withSpread(K(parquet.cpuRates.parquet), 0)}k/s, SQLite ${withSpread(K(parquet.cpuRates.sqlite), 0)}k/s; Parquet / SQLite ${withSpread(cpuRatios, 2)}`,
      goal: '',
      verdict: 'info',
    },
    {
      figure: `analyse b size of the same candles: Parquet ${MB(parquet.bytes.parquet)}, SQLite ${MB(parquet.bytes.sqlite)}, CSV ${MB(parquet.bytes.csv)}`,
      goal: '',
      verdict: 'info',
    },
  ]
  const heapFlat = resample.heapMb.growth <= HEAP_FLAT_MB && resample.outputs === Math.ceil(RESAMPLE_CANDLES / 15)
  // As the table: a median that meets its goal passes, whatever its spread (honest verdicts, support/table.ts).
  const pass = heapFlat && parquet.complete && rows.every((r) => r.verdict !== 'not met')
  return { resample, inMemory, parquet, ratios, cpuRatios, rows, pass }
}

export function reportAnalyse(r: AnalyseBench): string[] {
  const { resample: s, parquet: p } = r
  return [
    `analyse. (a) resample(${RESAMPLE_CANDLES / 1e6} M 1m candles held in one array, '15m'), ${r.inMemory.cpu.length} rounds: per second of CPU time ${withSpread(M(r.inMemory.cpu), 2)} M/s, of wall time ${withSpread(M(r.inMemory.wall), 2)} M/s`,
    `      resample(${RESAMPLE_CANDLES / 1e6} M 1m candles made by a generator, '15m') -> ${s.outputs} candles, ${s.own.length} alternating rounds`,
    `      per second of CPU time: making the candles alone ${withSpread(M(s.generateCpu), 2)} M/s; making and resampling ${withSpread(M(s.totalCpu), 2)} M/s`,
    `      resample's own share (time of both - time of making alone): ${withSpread(M(s.ownCpu.filter(Number.isFinite)), 2)} M source candles/s of CPU time; target >= ${RESAMPLE_TARGET_PER_S / 1e6} M/s with making the candles included`,
    `      per second of wall time: making alone ${withSpread(M(s.generate), 2)} M/s, making and resampling ${withSpread(M(s.total), 2)} M/s`,
    `      heap used after a full GC: ${fmt(s.heapMb.at1M, 2)} MB at 1 M source candles, ${fmt(s.heapMb.atEnd, 2)} MB at ${RESAMPLE_CANDLES / 1e6} M (growth ${fmt(s.heapMb.growth, 2)} MB, target <= ${HEAP_FLAT_MB})`,
    `  (b) export ${p.candles} 1m candles (serve --no-rate-limit, --rate-limit off), series start .. export done, formats in alternating rounds`,
    `      Parquet ${withSpread(K(p.rates.parquet), 0)}k candles/s, SQLite ${withSpread(K(p.rates.sqlite), 0)}k, CSV ${withSpread(K(p.rates.csv), 0)}k; Parquet / SQLite per round ${r.ratios.map((x) => fmt(x, 2)).join(', ')} (median ${fmt(median(r.ratios), 2)})`,
    `      per second of CPU time: Parquet ${withSpread(K(p.cpuRates.parquet), 0)}k, SQLite ${withSpread(K(p.cpuRates.sqlite), 0)}k, CSV ${withSpread(K(p.cpuRates.csv), 0)}k; Parquet / SQLite per round ${r.cpuRatios.map((x) => fmt(x, 2)).join(', ')}`,
    `      on disk: Parquet ${MB(p.bytes.parquet)} (${fmt(p.bytes.parquet / p.candles, 1)} B/candle), SQLite ${MB(p.bytes.sqlite)} (${fmt(p.bytes.sqlite / p.candles, 1)}), CSV ${MB(p.bytes.csv)} (${fmt(p.bytes.csv / p.candles, 1)})`,
  ]
}
