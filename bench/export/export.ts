/**
 * Section 6, `market-candles export`, three measurements side by side in one run:
 * (a) at the rate limit: the export against `serve --latency 250` with the service's rate limit on,
 *     >= 100 full 1m pages: requests/s and 429s (target >= 9.5/s and none);
 * (b) memory: RSS after 2,000,000 candles against RSS after 200,000 (target: within 50 MB), one
 *     export per sink (SQLite, CSV, JSON Lines, PostgreSQL), each in its own process;
 * (c) where the network is not the limit (`serve --no-rate-limit`, no latency, `--rate-limit off`):
 *     candles/s into every sink beside a raw fetch -> JSON.parse loop over the same pages with the
 *     same 8 requests in flight, each export run right after a raw run it is compared with, 3 rounds
 *     (target: each sink >= 0.6x the raw loop in every pair; SQLite >= 200,000/s). The spread is
 *     printed, and where the CPU went: the export's, the reference server's and PostgreSQL's. Each sink also runs on the export's own
 *     thread (`sinkThread: false`), the way it ran before it had a thread, as a comparison row.
 * PostgreSQL is a real local server (test/support/postgres-server.ts) with its default durability;
 * without one installed its rows say so.
 * Every run is a child process (bench/export/export-child.ts) running the same function as the CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pgClient from 'pg'
import { CLI } from '../support/build-cli.js'
import { runChildForResult } from '../support/child-result.js'
import { processTreeCpuMs, startChildServer, type ChildServer } from '../support/child-server.js'
import type { ExportChildConfig, ExportChildResult } from './export-child.js'
import { API_KEY, NOW } from '../support/fixtures.js'
import { fmt, median, verdict } from '../support/stats.js'
import { POSTGRES_MISSING, startPostgres } from '../../test/support/postgres-server.js'
import { verdictOfOne, verdictOfRuns, type BenchRow } from '../support/table.js'
import { fullPageRange, type WalkRange } from '../support/walk-range.js'

const CHILD = fileURLToPath(new URL('./export-child.ts', import.meta.url))
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
const ROUNDS = 3
export const RATIO_TARGET = 0.6
const SINKS = ['sqlite', 'csv', 'jsonl', 'postgres'] as const
type SinkName = (typeof SINKS)[number]
const SINK_NAMES: Record<SinkName, string> = { sqlite: 'SQLite', csv: 'CSV', jsonl: 'JSON Lines', postgres: 'PostgreSQL' }
interface Rates {
  rates: number[]
  cpuRates: number[]
}
/** Per sink: candles/s, per CPU second, candles stored, and its ratio to the raw loop of the same round. */
type SinkRates = Partial<Record<SinkName, Rates & { candles: number[]; ratios: number[]; cpuMsPerPage: number[]; serverMsPerPage: number[]; postgresMsPerPage: number[] }>>

export interface ExportBench {
  rate: { range: WalkRange; rounds: Array<{ run: ExportChildResult; rate: number; counted: number }>; rates: number[]; pass: boolean }
  memory: Array<{ sink: SinkName; run: ExportChildResult; from: number; to: number; growthMb: number; pass: boolean }>
  throughput: { range: WalkRange; raw: Rates & { serverMsPerPage: number[] }; sinks: SinkRates; inline: SinkRates; pass: boolean }
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

export const exportArgs = (range: WalkRange, out: string | string[], extra: string[] = []) => [
  '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--start', range.start, '--end', range.end, ...(typeof out === 'string' ? ['--out', out] : out), ...extra,
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

    const pg = POSTGRES_MISSING === undefined ? await startPostgres({ durable: true }) : undefined
    try {
      return await withServer('reference server (no rate limit)', ['--no-rate-limit'], async (server) => {
        const out = (sink: SinkName, tag: string) => (sink === 'postgres' ? ['--out', pg!.url(), '--pg-schema', tag] : ['--out', join(dir, `${tag}.${sink}`)])
        const measured = SINKS.filter((sink) => sink !== 'postgres' || pg !== undefined)
        // A run's output goes once measured: a file, or a PostgreSQL schema, whose table autovacuum
        // would otherwise go on scanning on the same cores while the next runs are measured.
        const clean = async (sink: SinkName, tag: string) => {
          if (sink !== 'postgres') return rmSync(join(dir, `${tag}.${sink}`), { force: true })
          const client = new pgClient.Client({ connectionString: pg!.url() })
          await client.connect()
          try {
            await client.query(`DROP SCHEMA IF EXISTS ${tag} CASCADE`)
          } finally {
            await client.end()
          }
        }

        // (b) memory over 2 M candles, each sink in its own process
        const memRange = fullPageRange(START_MS, MEMORY_PAGES)
        const memory: ExportBench['memory'] = []
        for (const sink of measured) {
          const run = await inChild('export', { baseUrl: server.url, argv: exportArgs(memRange, out(sink, `memory_${sink}`), ['--rate-limit', 'off']), rssMarks: [MEMORY_FROM, MEMORY_TO] })
          const at = (n: number) => run.rss.find((r) => r.candles === n)?.rssMb ?? Number.NaN
          const growthMb = at(MEMORY_TO) - at(MEMORY_FROM)
          memory.push({ sink, run, from: at(MEMORY_FROM), to: at(MEMORY_TO), growthMb, pass: growthMb <= MEMORY_GROWTH_TARGET_MB })
          await clean(sink, `memory_${sink}`)
        }

        // (c) throughput of every sink beside the raw loop; each round runs all of them, the order rotating.
        // Each sink runs twice: on its own thread (the CLI) and on the export's thread (for comparison).
        const range = fullPageRange(Date.UTC(2022, 0, 1), THROUGHPUT_PAGES)
        const raw: Rates & { serverMsPerPage: number[] } = { rates: [], cpuRates: [], serverMsPerPage: [] }
        const newRates = () => ({ rates: [], cpuRates: [], candles: [], ratios: [], cpuMsPerPage: [], serverMsPerPage: [], postgresMsPerPage: [] })
        const sinks = Object.fromEntries(measured.map((sink) => [sink, newRates()])) as unknown as SinkRates
        const inline = Object.fromEntries(measured.map((sink) => [sink, newRates()])) as unknown as SinkRates
        // Each run is paired with a raw loop run just before it: the machine's speed drifts from minute
        // to minute (raw runs of one bench spread 30 %), and a ratio of two runs side by side drifts least.
        const contenders: Array<{ who: SinkName; thread: boolean }> = [...measured.map((who) => ({ who, thread: true })), ...measured.map((who) => ({ who, thread: false }))]
        const rawRun = async () => {
          const server0 = server.cpuMs()
          const r = await inChild('raw', { baseUrl: server.url, startMs: Date.parse(range.start), pages: THROUGHPUT_PAGES, concurrency: 8 })
          raw.rates.push(r.candles / (r.writeSpanMs / 1000))
          raw.cpuRates.push(r.candles / (r.cpuMs / 1000))
          raw.serverMsPerPage.push((server.cpuMs() - server0) / THROUGHPUT_PAGES)
          return r.candles / (r.writeSpanMs / 1000)
        }
        for (let round = 0; round < ROUNDS; round++) {
          const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!)
          for (const { who, thread } of order) {
            const rawRate = await rawRun()
            const tag = `throughput_${who}_${round}_${thread ? 'thread' : 'inline'}`
            const server0 = server.cpuMs()
            const pg0 = who === 'postgres' ? processTreeCpuMs(pg!.pid) : 0
            const e = await inChild('export', { baseUrl: server.url, argv: exportArgs(range, out(who, tag), ['--rate-limit', 'off']), sinkThread: thread })
            const into = (thread ? sinks : inline)[who]!
            const rate = e.candles / (e.writeSpanMs / 1000)
            into.rates.push(rate)
            into.cpuRates.push(e.candles / (e.cpuMs / 1000))
            into.candles.push(e.candles)
            into.ratios.push(rate / rawRate)
            into.cpuMsPerPage.push(e.cpuMs / THROUGHPUT_PAGES)
            into.serverMsPerPage.push((server.cpuMs() - server0) / THROUGHPUT_PAGES)
            if (who === 'postgres') into.postgresMsPerPage.push((processTreeCpuMs(pg!.pid) - pg0) / THROUGHPUT_PAGES)
            await clean(who, tag)
          }
        }
        const complete = measured.every((sink) => sinks[sink]!.candles.every((n) => n === range.candles))
        const ratioPass = measured.every((sink) => verdictOfRuns(sinks[sink]!.ratios, RATIO_TARGET) !== 'not met')
        const sqlite = sinks.sqlite!
        const throughput = { range, raw, sinks, inline, pass: complete && ratioPass && median(sqlite.rates) >= THROUGHPUT_TARGET }
        const rateRow: BenchRow = {
          figure: `6a export at the rate limit (latency 250 ms, ${RATE_PAGES} pages, ${RATE_ROUNDS} rounds): ${fmt(median(rate.rates), 2)} requests/s (${rate.rates.map((r) => fmt(r, 2)).join(', ')}), ${rate.rounds.reduce((n, r) => n + r.run.rateLimited, 0)} × 429`,
          goal: `>= ${EXPORT_RATE_TARGET}/s, no 429`,
          verdict: rate.rounds.some((r) => r.run.rateLimited > 0) ? 'not met' : verdictOfRuns(rate.rates, EXPORT_RATE_TARGET),
        }
        const rows: BenchRow[] = [
          rateRow,
          ...memory.map((m): BenchRow => ({
            figure: `6b RSS into ${SINK_NAMES[m.sink]} after ${MEMORY_TO / 1e6} M candles - after ${MEMORY_FROM / 1e3} k: ${fmt(m.growthMb, 1)} MB (${fmt(m.from, 0)} → ${fmt(m.to, 0)})`,
            goal: `<= ${MEMORY_GROWTH_TARGET_MB} MB`,
            verdict: verdictOfOne(m.growthMb, MEMORY_GROWTH_TARGET_MB, true),
          })),
          ...measured.map((sink): BenchRow => {
            const t = sinks[sink]!
            return {
              figure: `6c into ${SINK_NAMES[sink]}, no rate limit: ${fmt(median(t.rates) / 1000, 0)}k candles/s (${spread(t.rates)}) = ${fmt(median(t.ratios), 2)}× the raw loop (${fmt(Math.min(...t.ratios), 2)}–${fmt(Math.max(...t.ratios), 2)}, each run beside its own raw run)`,
              goal: `>= ${RATIO_TARGET}× raw`,
              verdict: t.candles.some((n) => n !== range.candles) ? 'not met' : verdictOfRuns(t.ratios, RATIO_TARGET),
            }
          }),
          ...(pg === undefined ? [{ figure: `6c into PostgreSQL: ${POSTGRES_MISSING}`, goal: `>= ${RATIO_TARGET}× raw`, verdict: 'not measured' as const }] : []),
          ...measured.map((sink): BenchRow => {
            const t = inline[sink]!
            return { figure: `6c into ${SINK_NAMES[sink]} written on the export's own thread, for comparison: ${fmt(median(t.ratios), 2)}× raw (${fmt(Math.min(...t.ratios), 2)}–${fmt(Math.max(...t.ratios), 2)})`, goal: '', verdict: 'info' }
          }),
          { figure: `6c raw fetch + JSON.parse over the same pages, 8 in flight: ${fmt(median(raw.rates) / 1000, 0)}k candles/s (${spread(raw.rates)})`, goal: '', verdict: 'info' },
          { figure: `6c into SQLite: ${fmt(median(sqlite.rates) / 1000, 0)}k candles/s (${spread(sqlite.rates)})`, goal: `>= ${THROUGHPUT_TARGET / 1000}k/s`, verdict: verdictOfRuns(sqlite.rates, THROUGHPUT_TARGET) },
          {
            figure: `6c per second of client CPU time: raw ${fmt(median(raw.cpuRates) / 1000, 0)}k; ${measured.map((sink) => `${SINK_NAMES[sink]} ${fmt(median(sinks[sink]!.cpuRates) / 1000, 0)}k`).join(', ')}`,
            goal: '',
            verdict: 'info',
          },
        ]
        const pass = rate.pass && memory.every((m) => m.pass) && pg !== undefined && throughput.pass
        return { rate, memory, throughput, rows, pass }
      })
    } finally {
      await pg?.destroy()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const spread = (xs: number[]) => `${fmt(Math.min(...xs) / 1000, 0)}k..${fmt(Math.max(...xs) / 1000, 0)}k`

export function reportExport(r: ExportBench): string[] {
  const { rate, memory, throughput: t } = r
  return [
    `6. market-candles export (runExport in a child process, key ${API_KEY}, 1m BTC/USD bitstamp, server clock ${NOW})`,
    `  (a) at the rate limit, into SQLite: serve --latency ${LATENCY_MS}, rate limit on, ${rate.range.pages} full pages ${rate.range.start} .. ${rate.range.end}, client defaults, a fresh server per round`,
    ...rate.rounds.map(
      (r, i) =>
        `      round ${i + 1}: ${r.run.candles} candles in ${r.run.pages} pages; ${r.run.requests} candle responses in ${fmt(r.run.responseSpanMs / 1000, 2)} s (first .. last), ${r.run.rateLimited} × 429; the service counted ${r.counted}; ${fmt(r.rate, 2)} requests/s`,
    ),
    `      median ${fmt(median(rate.rates), 2)} requests/s (target >= ${EXPORT_RATE_TARGET}, no 429, >= 100 pages)  ${verdict(rate.pass)}`,
    `  (b) memory: serve --no-rate-limit, --rate-limit off, ${MEMORY_PAGES} pages, each sink in its own process (PostgreSQL: a local server with its default durability)`,
    ...memory.map(
      (m) =>
        `      ${SINK_NAMES[m.sink].padEnd(10)} ${m.run.candles} candles (${fmt(m.run.candles / (m.run.writeSpanMs / 1000) / 1000, 0)}k/s); RSS after ${MEMORY_FROM} ${fmt(m.from, 1)} MB, after ${MEMORY_TO} ${fmt(m.to, 1)} MB, peak ${fmt(m.run.peakRssMb, 1)} MB: growth ${fmt(m.growthMb, 1)} MB (target <= ${MEMORY_GROWTH_TARGET_MB})  ${verdict(m.pass)}`,
    ),
    `  (c) throughput: serve --no-rate-limit, no latency, --rate-limit off, ${t.range.pages} pages (${t.range.candles} candles), ${ROUNDS} rounds, each running every sink (order rotating), each run right after a raw loop run it is compared with`,
    `      raw fetch -> JSON.parse, same pages, 8 in flight: median ${fmt(median(t.raw.rates), 0)} candles/s (${spread(t.raw.rates)}); per second of its CPU ${fmt(median(t.raw.cpuRates), 0)}`,
    ...Object.entries(t.sinks).map(([sink, s]) => {
      const ok = Math.min(...s.ratios) >= RATIO_TARGET && s.candles.every((n) => n === t.range.candles)
      return `      ${SINK_NAMES[sink as SinkName].padEnd(10)} median ${fmt(median(s.rates), 0)} candles/s (${spread(s.rates)}), ${fmt(median(s.ratios), 2)}× raw (rounds ${s.ratios.map((x) => fmt(x, 2)).join(', ')}; target >= ${RATIO_TARGET}); per second of CPU ${fmt(median(s.cpuRates), 0)}  ${verdict(ok)}`
    }),
    ...Object.entries(t.sinks).map(
      ([sink, s]) =>
        `      ${SINK_NAMES[sink as SinkName].padEnd(10)} CPU per 1000-candle page: the export ${fmt(median(s.cpuMsPerPage), 2)} ms (all its threads), the reference server ${fmt(median(s.serverMsPerPage), 2)} ms${s.postgresMsPerPage.length > 0 ? `, PostgreSQL ${fmt(median(s.postgresMsPerPage), 2)} ms` : ''}; raw loop ${fmt(1000_000 / median(t.raw.cpuRates), 2)} ms, its server ${fmt(median(t.raw.serverMsPerPage), 2)} ms`,
    ),
    ...Object.entries(t.inline).map(([sink, s]) => `      ${SINK_NAMES[sink as SinkName].padEnd(10)} on the export's own thread (for comparison): median ${fmt(median(s.rates), 0)} candles/s (${spread(s.rates)}), ${fmt(median(s.ratios), 2)}× raw (rounds ${s.ratios.map((x) => fmt(x, 2)).join(', ')}); per second of CPU ${fmt(median(s.cpuRates), 0)}`),
    `      series start (catalog read) .. last page written; the client's CPU time counts all its threads (the output's thread included)`,
  ]
}
