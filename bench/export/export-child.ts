/**
 * One measured run for bench/export/export.ts, in its own process (a fresh heap, so RSS is this run's):
 * `node --import tsx bench/export/export-child.ts export|raw CONFIG_JSON`. `export` runs the export command
 * as the CLI does, in a worker thread with the same heap limits and growing factor (runExport, the function
 * `market-candles export` calls), with a recording progress reporter; `raw` fetches the same pages
 * with fetch + JSON.parse and nothing else, on the main thread. Prints one line, `result <JSON>`.
 * Exits when its stdin closes (the bench died).
 */
import { readFileSync } from 'node:fs'
import { Writable } from 'node:stream'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { runExport } from '../../cli/export/index.js'
import { EXPORT_WORKER_LIMITS, useExportHeapGrowth } from '../../cli/export/threads/run-in-worker.js'
import type { ProgressReporter, ReporterContext } from '../../cli/export/progress/index.js'
import { API_KEY } from '../support/fixtures.js'

export interface ExportChildConfig {
  baseUrl: string
  /** Arguments after `market-candles export`. */
  argv?: string[]
  /** Record RSS (MB) once at least this many candles are written. */
  rssMarks?: number[]
  /** raw mode: `pages` full 1m BTC/USD pages from `startMs` (the export's windows), `concurrency` in flight. */
  startMs?: number
  pages?: number
  concurrency?: number
  /** export mode: false writes on the export's own thread (the comparison row). @default true */
  sinkThread?: boolean
}

export interface ExportChildResult {
  exitCode: number
  candles: number
  pages: number
  requests: number
  rateLimited: number
  /** First candle response .. last candle response, ms. */
  responseSpanMs: number
  /** Series started (catalog read) .. last page written, ms. */
  writeSpanMs: number
  /** RSS and V8 heap in MB at each mark, in candles. */
  rss: Array<{ candles: number; rssMb: number; heapTotalMb: number; heapUsedMb: number; externalMb: number }>
  peakRssMb: number
  /** CPU time (user + system, every thread of this process) over writeSpanMs, ms. */
  cpuMs: number
  /** Series started .. the export done, output closed (a sink that buffers flushes at close), ms. */
  doneSpanMs?: number
  /** CPU time over doneSpanMs, ms. */
  doneCpuMs?: number
}

const cpuNow = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

const MB = 2 ** 20
const [mode, json] = isMainThread ? process.argv.slice(2) : (workerData as string[])
// `@FILE`: the config is in that file (a long URL list exceeds the system's limit on one argument).
const config = JSON.parse((json?.startsWith('@') ? readFileSync(json.slice(1), 'utf8') : json) ?? '{}') as ExportChildConfig
const discard = () => new Writable({ write: (_c, _e, done) => done() })

async function exportRun(): Promise<ExportChildResult> {
  const marks = [...(config.rssMarks ?? [])].sort((a, b) => a - b)
  const rss: ExportChildResult['rss'] = []
  let candles = 0
  let pages = 0
  let startedAt = 0
  let cpuAtStart = 0
  let cpuAtEnd = 0
  let lastWriteAt = 0
  let peak = 0
  let meter: ReporterContext['meter'] | undefined
  const recorder = (context: ReporterContext): ProgressReporter => {
    meter = context.meter
    return {
      seriesStarted: () => {
        if (startedAt === 0) {
          startedAt = performance.now()
          cpuAtStart = cpuNow()
        }
      },
      pageWritten(n) {
        candles += n
        pages++
        lastWriteAt = performance.now()
        cpuAtEnd = cpuNow()
        // Sampled every 10 pages and at the marks only: reading RSS costs about 0.3 ms.
        if (pages % 10 !== 0 && !(marks.length > 0 && candles >= marks[0]!)) return
        const m = process.memoryUsage()
        peak = Math.max(peak, m.rss / MB)
        while (marks.length > 0 && candles >= marks[0]!) {
          rss.push({ candles: marks.shift()!, rssMb: m.rss / MB, heapTotalMb: m.heapTotal / MB, heapUsedMb: m.heapUsed / MB, externalMb: m.external / MB })
        }
      },
      seriesDone() {},
      note() {},
      stop() {},
    }
  }
  const exitCode = await runExport(config.argv!, {
    env: { MARKET_CANDLES_API_KEY: API_KEY, MARKET_CANDLES_BASE_URL: config.baseUrl },
    stdout: discard(),
    stderr: process.stderr,
    stderrIsTTY: false,
    reporter: recorder,
    onInterrupt: () => () => {},
    sinkThread: config.sinkThread,
  })
  const doneAt = performance.now()
  const doneCpuMs = cpuNow() - cpuAtStart
  return {
    doneSpanMs: doneAt - startedAt,
    doneCpuMs,
    exitCode,
    candles,
    pages,
    requests: meter?.requests ?? 0,
    rateLimited: meter?.rateLimited ?? 0,
    responseSpanMs: (meter?.lastAt ?? 0) - (meter?.firstAt ?? 0),
    writeSpanMs: lastWriteAt - startedAt,
    rss,
    peakRssMb: peak,
    cpuMs: cpuAtEnd - cpuAtStart,
  }
}

async function rawRun(): Promise<ExportChildResult> {
  // The same windows the export's walk requests: `limit` minutes each, from the range's start.
  const urls = Array.from({ length: config.pages! }, (_, k) => {
    const start = new Date(config.startMs! + k * 1000 * 60_000).toISOString()
    return `${config.baseUrl}/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000&start=${start}`
  })
  let next = 0
  let candles = 0
  const started = performance.now()
  const cpu0 = cpuNow()
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!
      const res = await fetch(url, { headers: { 'x-api-key': API_KEY } })
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
      // Parsed before the sum: `candles += f(await ...)` reads `candles` before the await, so the
      // 8 workers would overwrite each other's counts (it undercounted by up to a fifth).
      const rows = JSON.parse(await res.text()) as unknown[]
      candles += rows.length
    }
  }
  await Promise.all(Array.from({ length: config.concurrency ?? 8 }, worker))
  const span = performance.now() - started
  const cpuMs = cpuNow() - cpu0
  return { exitCode: 0, candles, pages: urls.length, requests: urls.length, rateLimited: 0, responseSpanMs: span, writeSpanMs: span, rss: [], peakRssMb: process.memoryUsage.rss() / MB, cpuMs }
}

/** The export in a worker with the CLI's own heap limits and growth (see cli/export/threads/run-in-worker.ts). */
function exportInWorker(): Promise<ExportChildResult> {
  useExportHeapGrowth()
  const worker = new Worker(new URL(import.meta.url), { workerData: [mode, json], resourceLimits: { ...EXPORT_WORKER_LIMITS } })
  return new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`export worker exited (${code}) without a result`)))
  })
}

if (!isMainThread) {
  parentPort!.postMessage(await exportRun())
} else {
  process.stdin.on('end', () => process.exit(3))
  process.stdin.resume()
  const result = mode === 'raw' ? await rawRun() : await exportInWorker()
  console.log(`result ${JSON.stringify(result)}`)
  process.exit(0)
}
