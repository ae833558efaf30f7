/**
 * Section `load-export`: `service.data.load(file)` of a SQLite file `market-candles export` wrote,
 * 1 M 1m candles (made once through the export's own SQLite sink into a temp directory). Each round
 * is a fresh child process: readExport alone, readExportColumns alone (load's fast path), then load (read + putCandles) into a service without
 * data. Figures per second of CPU time (the verdict: the machine is shared, and a wait for a core is
 * not the reader's cost) and of wall time, with their spread; the heap the loaded candles hold after
 * a full GC against the process's peak RSS, to show memory follows the candles, not the file.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from '../cli/export/sinks/sqlite-sink.js'
import { createMockService } from '../mocks/core/service/service.js'
import { runChildForResult } from './child-result.js'
import { fmt, median, withSpread } from './stats.js'
import { verdictOf, type BenchRow } from './table.js'

/** The goal: candles loaded per second. */
export const LOAD_TARGET_PER_S = 500_000
const CANDLES = 1_000_000
const ROUNDS = 3
const CHILD = new URL('./load-export-child.ts', import.meta.url).pathname

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
  columns: ChildRun[]
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
    const run = (mode: 'read' | 'columns' | 'load') => runChildForResult<ChildRun>(CHILD, [mode, file, String(CANDLES)], 600_000, undefined, ['--expose-gc', '--max-old-space-size=4096'])
    const read: ChildRun[] = []
    const columns: ChildRun[] = []
    const load: ChildRun[] = []
    // Alternated, so both see the machine's load of the same minutes.
    for (let i = 0; i < ROUNDS; i++) {
      read.push(await run('read'))
      columns.push(await run('columns'))
      load.push(await run('load'))
    }
    const rate = (runs: ChildRun[], key: 'cpu' | 'wall') => runs.map((r) => r[key] / 1e3)
    const low = Math.min(...load.map((r) => r.cpu))
    const high = Math.max(...load.map((r) => r.cpu))
    const rows: BenchRow[] = [
      {
        figure: `load-export load (read + put) of an export's SQLite file, 1 M 1m candles, per second of CPU time: ${withSpread(rate(load, 'cpu'), 0)} k candles/s; of wall time: ${withSpread(rate(load, 'wall'), 0)} k/s`,
        goal: `>= ${LOAD_TARGET_PER_S / 1e3} k/s`,
        verdict: verdictOf(low, high, LOAD_TARGET_PER_S),
      },
      {
        figure: `load-export readExport alone, per second of CPU time: ${withSpread(rate(read, 'cpu'), 0)} k candles/s; of wall time: ${withSpread(rate(read, 'wall'), 0)} k/s`,
        goal: '',
        verdict: 'info',
      },
      {
        figure: `load-export readExportColumns alone (load's SQLite fast path: columns, no candle objects), per second of CPU time: ${withSpread(rate(columns, 'cpu'), 0)} k candles/s; of wall time: ${withSpread(rate(columns, 'wall'), 0)} k/s`,
        goal: '',
        verdict: 'info',
      },
      {
        figure: `load-export memory of a load: heap (typed arrays included) held by the service after a full GC ${withSpread(load.map((r) => r.heapHeld / CANDLES), 0)} B/candle; peak RSS ${withSpread(load.map((r) => (r.peakRss - r.rssBefore) / CANDLES), 0)} B/candle above the start (file: ${fmt(fileBytes / CANDLES, 0)} B/candle)`,
        goal: '',
        verdict: 'info',
      },
    ]
    return { fileBytes, read, columns, load, rows, pass: rows[0]!.verdict !== 'not met' }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function reportLoadExport(r: LoadExportBench): string[] {
  const line = (name: string, runs: ChildRun[]) =>
    `  ${name}: ${runs.map((x) => `${fmt(x.cpu / 1e3, 0)} k/s CPU, ${fmt(x.wall / 1e3, 0)} k/s wall, heap held ${fmt(x.heapHeld / 2 ** 20, 0)} MB, peak RSS ${fmt(x.peakRss / 2 ** 20, 0)} MB`).join('; ')}`
  return [
    `load-export: 1 M candles in a ${fmt(r.fileBytes / 2 ** 20, 0)} MB SQLite file; ${ROUNDS} rounds, one child process each (median load ${fmt(median(r.load.map((x) => x.cpu)) / 1e3, 0)} k candles per CPU second)`,
    line('readExport', r.read),
    line('columns   ', r.columns),
    line('data.load ', r.load),
  ]
}
