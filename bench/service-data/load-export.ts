/**
 * Section `load-export`: `service.data.load(file)` of a SQLite file `market-candles export` wrote,
 * 1 M 1m candles (made once through the export's own SQLite sink into a temp directory). Each round
 * is a fresh child process: readExport alone (candle objects, the path of CSV, JSON Lines and
 * Parquet files), then load (node:sqlite into columns, checked and stored) into a service without
 * data. The verdict: the median load's CPU seconds (the load runs on one thread, so on a quiet
 * machine its wall time is that; on a shared one a wait for a core is not the load's cost), wall
 * seconds beside them; the heap the loaded candles hold after a full GC against the process's peak RSS, to show
 * memory follows the candles, not the file.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openSqlite } from '../../cli/export/sinks/sqlite/sqlite-sink.js'
import { createMockService } from '../../mocks/core/service/service.js'
import { runChildForResult } from '../support/child-result.js'
import { fmt, median, withSpread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'

/** The goal: seconds to load the 1 M candles, at most. */
export const LOAD_TARGET_S = 3
const CANDLES = 1_000_000
const ROUNDS = 3
const CHILD = fileURLToPath(new URL('./load-export-child.ts', import.meta.url))

interface ChildRun {
  wall: number
  cpu: number
  heapHeld: number
  peakRss: number
  rssBefore: number
}

export interface LoadExportBench {
  fileBytes: number
  read: ChildRun[]
  load: ChildRun[]
  rows: BenchRow[]
  pass: boolean
}

/** 1 M bitstamp BTC/USD 1m candles from the reference service, written by the export's SQLite sink. */
async function makeFile(path: string): Promise<void> {
  const service = createMockService({ now: '2026-01-01T00:00:00Z', rateLimit: false })
  const sink = await openSqlite(path, 'exchange')
  const series = { kind: 'exchange' as const, source: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', first: 0, last: 0 }
  let start = Date.parse('2020-01-01T00:00:00Z')
  for (let n = 0; n < CANDLES; ) {
    const url = `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000&start=${new Date(start).toISOString()}`
    const res = await service.handle({ method: 'GET', url, headers: { 'x-api-key': 'demo-enterprise-key' } })
    const page = (res.body as Array<{ close_ts: string }>).slice(0, CANDLES - n)
    await sink.write(series, page as never)
    n += page.length
    start = Date.parse(page.at(-1)!.close_ts) + 1
  }
  await sink.close()
}

export async function measureLoadExport(): Promise<LoadExportBench> {
  const dir = mkdtempSync(join(tmpdir(), 'market-candles-load-'))
  try {
    const file = join(dir, 'candles.sqlite')
    await makeFile(file)
    const fileBytes = statSync(file).size
    const run = (mode: 'read' | 'load') => runChildForResult<ChildRun>(CHILD, [mode, file, String(CANDLES)], 600_000, undefined, ['--expose-gc', '--max-old-space-size=4096'])
    const read: ChildRun[] = []
    const load: ChildRun[] = []
    // Alternated, so both see the machine's load of the same minutes.
    for (let i = 0; i < ROUNDS; i++) {
      read.push(await run('read'))
      load.push(await run('load'))
    }
    // The child reports candles per second: seconds for the million.
    const seconds = (runs: ChildRun[], key: 'cpu' | 'wall') => runs.map((r) => CANDLES / r[key])
    const cpu = median(seconds(load, 'cpu'))
    const rows: BenchRow[] = [
      {
        figure: `load-export data.load of an export's SQLite file, 1 M 1m candles (node:sqlite into columns, checked, stored): ${withSpread(seconds(load, 'cpu'), 2)} s CPU (the verdict, median of ${ROUNDS}), ${withSpread(seconds(load, 'wall'), 2)} s wall`,
        goal: `<= ${LOAD_TARGET_S} s`,
        verdict: verdictOfRuns(seconds(load, 'cpu'), LOAD_TARGET_S, true),
      },
      {
        figure: `load-export readExport alone (candle objects: the path of CSV, JSON Lines, Parquet): ${withSpread(seconds(read, 'wall'), 2)} s wall, ${withSpread(seconds(read, 'cpu'), 2)} s CPU`,
        goal: '',
        verdict: 'info',
      },
      {
        figure: `load-export memory of a load: heap (typed arrays included) held by the service after a full GC ${withSpread(load.map((r) => r.heapHeld / CANDLES), 0)} B/candle; peak RSS ${withSpread(load.map((r) => (r.peakRss - r.rssBefore) / CANDLES), 0)} B/candle above the start (file: ${fmt(fileBytes / CANDLES, 0)} B/candle)`,
        goal: '',
        verdict: 'info',
      },
    ]
    return { fileBytes, read, load, rows, pass: rows[0]!.verdict !== 'not met' }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function reportLoadExport(r: LoadExportBench): string[] {
  const line = (name: string, runs: ChildRun[]) =>
    `  ${name}: ${runs.map((x) => `${fmt(x.cpu / 1e3, 0)} k/s CPU, ${fmt(x.wall / 1e3, 0)} k/s wall, heap held ${fmt(x.heapHeld / 2 ** 20, 0)} MB, peak RSS ${fmt(x.peakRss / 2 ** 20, 0)} MB`).join('; ')}`
  return [
    `load-export: 1 M candles in a ${fmt(r.fileBytes / 2 ** 20, 0)} MB SQLite file; ${ROUNDS} rounds, one child process each (median load ${fmt(CANDLES / median(r.load.map((x) => x.cpu)), 2)} s CPU)`,
    line('readExport', r.read),
    line('data.load ', r.load),
  ]
}
