/**
 * Section 6, `market-candles export`, three measurements side by side in one run:
 * (a) at the rate limit: the export against `serve --latency 250` with the service's rate limit on,
 *     >= 100 full 1m pages: requests/s and 429s (target >= 9.5/s and none);
 * (b) memory: RSS after 2,000,000 candles against RSS after 200,000 (target: within 50 MB), one
 *     export into SQLite in its own process;
 * (c) where the network is not the limit (`serve --no-rate-limit`, no latency, `--rate-limit off`):
 *     candles/s into SQLite (target >= 200,000), beside a raw fetch -> JSON.parse loop over the same
 *     pages with the same 8 requests in flight. Rounds alternate; the spread is printed.
 * Every run is a child process (bench/export-child.ts) running the same function as the CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI } from './build-cli.js'
import { runChildForResult } from './child-result.js'
import { startChildServer, type ChildServer } from './child-server.js'
import type { ExportChildConfig, ExportChildResult } from './export-child.js'
import { API_KEY, NOW } from './fixtures.js'
import { fmt, median, verdict } from './stats.js'
import { verdictOf, type BenchRow } from './table.js'
import { fullPageRange, type WalkRange } from './walk-range.js'

const CHILD = 'bench/export-child.ts'
const CHILD_TIMEOUT_MS = 180_000
const START_MS = Date.UTC(2020, 0, 1)

export const EXPORT_RATE_TARGET = 9.5
const RATE_PAGES = 120
const RATE_ROUNDS = 2
const LATENCY_MS = 250
const MEMORY_FROM = 200_000
const MEMORY_TO = 2_000_000
export const MEMORY_GROWTH_TARGET_MB = 50
// A few pages more than 2 M candles: outages of the default dataset leave a few minutes out.
const MEMORY_PAGES = 2010
export const THROUGHPUT_TARGET = 200_000
// Long enough that start-up (JIT, a new file) is a small part of the run.
const THROUGHPUT_PAGES = 1000
const ROUNDS = 2

export interface ExportBench {
  rate: { range: WalkRange; rounds: Array<{ run: ExportChildResult; rate: number; counted: number }>; rates: number[]; pass: boolean }
  memory: { run: ExportChildResult; from: number; to: number; growthMb: number; pass: boolean }
  throughput: { range: WalkRange; exportRates: number[]; rawRates: number[]; exportCpuRates: number[]; rawCpuRates: number[]; exportCandles: number[]; pass: boolean }
  rows: BenchRow[]
  pass: boolean
}

export function inChild(mode: 'export' | 'raw', config: ExportChildConfig): Promise<ExportChildResult> {
  // A config longer than one argument may be (128 KiB on Linux: E2BIG) goes through a temp file.
  let json = JSON.stringify(config)
  let configDir: string | undefined
  if (json.length > 64 * 1024) {
    configDir = mkdtempSync(join(tmpdir(), 'market-candles-export-config-'))
    writeFileSync(join(configDir, 'config.json'), json)
    json = `@${join(configDir, 'config.json')}`
  }
  const cleanUp = () => configDir && rmSync(configDir, { recursive: true, force: true })
  const exitCode = (result: ExportChildResult) => (result.exitCode !== 0 ? `export exited ${result.exitCode}` : undefined)
  return runChildForResult(CHILD, [mode, json], CHILD_TIMEOUT_MS, exitCode).finally(cleanUp)
}

export const exportArgs = (range: WalkRange, out: string, extra: string[] = []) => [
  '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--start', range.start, '--end', range.end, '--out', out, ...extra,
]

export async function withServer<T>(name: string, flags: string[], body: (server: ChildServer) => Promise<T>): Promise<T> {
  const server = await startChildServer(name, [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--now', NOW, ...flags])
  try {
    return await body(server)
  } finally {
    await server.stop()
  }
}

export async function measureExport(): Promise<ExportBench> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'))
  try {
    // (a) at the rate limit; each round on a fresh server, so no rate window carries over
    const rateRange = fullPageRange(START_MS, RATE_PAGES)
    const rateRounds: Array<{ run: ExportChildResult; rate: number; counted: number }> = []
    for (let round = 0; round < RATE_ROUNDS; round++) {
      rateRounds.push(
        await withServer('reference server (rate limited, latency 250)', ['--latency', String(LATENCY_MS)], async (server) => {
          const run = await inChild('export', { baseUrl: server.url, argv: exportArgs(rateRange, join(dir, `rate-${round}.sqlite`)) })
          const usage = (await (await fetch(`${server.url}/_mock/usage`)).json()) as Record<string, number>
          return { run, rate: (run.requests - 1) / (run.responseSpanMs / 1000), counted: usage.acct_enterprise ?? Number.NaN }
        }),
      )
    }
    const rates = rateRounds.map((r) => r.rate)
    const rate = {
      range: rateRange,
      rounds: rateRounds,
      rates,
      pass: median(rates) >= EXPORT_RATE_TARGET && rateRounds.every((r) => r.run.rateLimited === 0 && r.run.pages >= 100 && r.run.candles === rateRange.candles),
    }

    return await withServer('reference server (no rate limit)', ['--no-rate-limit'], async (server) => {
      // (b) memory over 2 M candles
      const memRange = fullPageRange(START_MS, MEMORY_PAGES)
      const memRun = await inChild('export', { baseUrl: server.url, argv: exportArgs(memRange, join(dir, 'memory.sqlite'), ['--rate-limit', 'off']), rssMarks: [MEMORY_FROM, MEMORY_TO] })
      const at = (n: number) => memRun.rss.find((r) => r.candles === n)?.rssMb ?? Number.NaN
      const growthMb = at(MEMORY_TO) - at(MEMORY_FROM)
      const memory = { run: memRun, from: at(MEMORY_FROM), to: at(MEMORY_TO), growthMb, pass: growthMb <= MEMORY_GROWTH_TARGET_MB }

      // (c) throughput into SQLite beside the raw loop, alternating rounds
      const range = fullPageRange(Date.UTC(2022, 0, 1), THROUGHPUT_PAGES)
      const exportRates: number[] = []
      const rawRates: number[] = []
      const exportCandles: number[] = []
      // Candles per second of the client's own CPU time: what one free core would give (the CI
      // machine's two cores are shared with the server and with other jobs).
      const exportCpuRates: number[] = []
      const rawCpuRates: number[] = []
      for (let round = 0; round < ROUNDS; round++) {
        const e = await inChild('export', { baseUrl: server.url, argv: exportArgs(range, join(dir, `throughput-${round}.sqlite`), ['--rate-limit', 'off']) })
        exportRates.push(e.candles / (e.writeSpanMs / 1000))
        exportCandles.push(e.candles)
        exportCpuRates.push(e.candles / (e.cpuMs / 1000))
        const r = await inChild('raw', { baseUrl: server.url, startMs: Date.parse(range.start), pages: THROUGHPUT_PAGES, concurrency: 8 })
        rawRates.push(r.candles / (r.writeSpanMs / 1000))
        rawCpuRates.push(r.candles / (r.cpuMs / 1000))
      }
      const throughput = { range, exportRates, rawRates, exportCpuRates, rawCpuRates, exportCandles, pass: median(exportRates) >= THROUGHPUT_TARGET && exportCandles.every((n) => n === range.candles) }
      const rows: BenchRow[] = [
        {
          figure: `6a export at the rate limit (latency 250 ms, ${RATE_PAGES} pages, ${RATE_ROUNDS} rounds): ${fmt(median(rate.rates), 2)} requests/s (${rate.rates.map((r) => fmt(r, 2)).join(', ')}), ${rate.rounds.reduce((n, r) => n + r.run.rateLimited, 0)} × 429`,
          goal: `>= ${EXPORT_RATE_TARGET}/s, no 429`,
          verdict: rate.rounds.some((r) => r.run.rateLimited > 0) ? 'not met' : verdictOf(Math.min(...rate.rates), Math.max(...rate.rates), EXPORT_RATE_TARGET),
        },
        { figure: `6b export RSS after ${MEMORY_TO / 1e6} M candles - after ${MEMORY_FROM / 1e3} k: ${fmt(memory.growthMb, 1)} MB`, goal: `<= ${MEMORY_GROWTH_TARGET_MB} MB`, verdict: verdictOf(memory.growthMb, memory.growthMb, MEMORY_GROWTH_TARGET_MB, true) },
        { figure: `6c export into SQLite, no rate limit: ${fmt(median(exportRates) / 1000, 0)}k candles/s (${spread(exportRates)}); raw fetch + JSON.parse ${fmt(median(rawRates) / 1000, 0)}k (${spread(rawRates)})`, goal: `>= ${THROUGHPUT_TARGET / 1000}k/s`, verdict: verdictOf(Math.min(...exportRates), Math.max(...exportRates), THROUGHPUT_TARGET) },
        { figure: `6c the same per second of client CPU time: export ${fmt(median(exportCpuRates) / 1000, 0)}k (${spread(exportCpuRates)}), raw ${fmt(median(rawCpuRates) / 1000, 0)}k (${spread(rawCpuRates)})`, goal: '', verdict: 'info' },
      ]
      return { rate, memory, throughput, rows, pass: rate.pass && memory.pass && throughput.pass }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const spread = (xs: number[]) => `${fmt(Math.min(...xs) / 1000, 0)}k..${fmt(Math.max(...xs) / 1000, 0)}k`

export function reportExport(r: ExportBench): string[] {
  const { rate, memory, throughput: t } = r
  const ratio = median(t.exportRates) / median(t.rawRates)
  return [
    `4. market-candles export (runExport in a child process, key ${API_KEY}, 1m BTC/USD bitstamp into SQLite, server clock ${NOW})`,
    `  (a) at the rate limit: serve --latency ${LATENCY_MS}, rate limit on, ${rate.range.pages} full pages ${rate.range.start} .. ${rate.range.end}, client defaults, a fresh server per round`,
    ...rate.rounds.map(
      (r, i) =>
        `      round ${i + 1}: ${r.run.candles} candles in ${r.run.pages} pages; ${r.run.requests} candle responses in ${fmt(r.run.responseSpanMs / 1000, 2)} s (first .. last), ${r.run.rateLimited} × 429; the service counted ${r.counted}; ${fmt(r.rate, 2)} requests/s`,
    ),
    `      median ${fmt(median(rate.rates), 2)} requests/s (target >= ${EXPORT_RATE_TARGET}, no 429, >= 100 pages)  ${verdict(rate.pass)}`,
    `  (b) memory: serve --no-rate-limit, --rate-limit off, ${memory.run.candles} candles in ${memory.run.pages} pages (${fmt(memory.run.candles / (memory.run.writeSpanMs / 1000) / 1000, 0)}k candles/s over the whole run)`,
    `      RSS after ${MEMORY_FROM} candles ${fmt(memory.from, 1)} MB, after ${MEMORY_TO} ${fmt(memory.to, 1)} MB, peak ${fmt(memory.run.peakRssMb, 1)} MB`,
    `      growth ${fmt(memory.growthMb, 1)} MB (target <= ${MEMORY_GROWTH_TARGET_MB} MB)  ${verdict(memory.pass)}`,
    `  (c) throughput: serve --no-rate-limit, no latency, --rate-limit off, ${t.range.pages} pages (${t.range.candles} candles), ${ROUNDS} alternating rounds`,
    `      export into SQLite: median ${fmt(median(t.exportRates), 0)} candles/s (${spread(t.exportRates)}), series start (catalog read) .. last page committed`,
    `      raw fetch -> JSON.parse, same pages, 8 in flight: median ${fmt(median(t.rawRates), 0)} candles/s (${spread(t.rawRates)})`,
    `      per second of the client's own CPU time (all its threads): export ${fmt(median(t.exportCpuRates), 0)} (${spread(t.exportCpuRates)}), raw ${fmt(median(t.rawCpuRates), 0)} (${spread(t.rawCpuRates)})`,
    `      export / raw = ${fmt(ratio, 2)} wall, ${fmt(median(t.exportCpuRates) / median(t.rawCpuRates), 2)} CPU; export ${fmt(median(t.exportRates), 0)} candles/s (target >= ${THROUGHPUT_TARGET})  ${verdict(t.pass)}`,
  ]
}
