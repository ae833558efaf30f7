/**
 * Section `journal`: what the request journal costs the standalone server. Two `serve` processes,
 * one with the journal on (its default 1000 entries, full after the warm-up) and one with it off
 * (`--journal-size 0`), loaded by two wrk processes at the same time with the same URLs: both
 * servers share the cores and whatever else runs on the machine in the same seconds, so the ratio
 * of their rates per round measures the journal, not the machine's load at one moment or another.
 */
import { RequestJournal } from '../../mocks/core/journal/journal.js'
import { createMockService, type MockService } from '../../mocks/core/service/service.js'
import { CLI } from '../support/build-cli.js'
import { procCpuMs, startChildServer } from '../support/child-server.js'
import { HEADERS, NOW } from '../support/fixtures.js'
import { createPageSet } from './page-set.js'
import { prefetchForwardPages } from './prefetch-pages.js'
import { fmt, median, spread, withSpread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'
import { createWrk, ensureWrk, type WrkRun } from './wrk.js'

/** Journal on must keep at least this share of the rate with it off (at most 5 % slower). */
export const JOURNAL_GOAL = 0.95

const KINDS = [
  { limit: 10, label: 'limit=10 pages' },
  { limit: 1000, label: '1000-candle pages' },
]
const FIRST_START = Date.UTC(2016, 0, 1) + 1
const PAGE_COUNT = 100
const VARIANTS = 100
const CONNECTIONS = 8
const THREADS = 1
const WARMUP_S = 1
const ROUND_S = 2
const ROUNDS = 6

interface Run extends WrkRun {
  serverCpuMs: number
}

export interface JournalKind {
  label: string
  on: Run[]
  off: Run[]
}

export interface JournalCost {
  skipped: string | undefined
  kinds: JournalKind[]
  /** The service core's CPU per request, journal on / off: the median of each group of paired blocks. */
  coreGroups: number[]
  /** The journal's own work per request (two clock reads and one record), ns, per block. */
  recordNs: number[]
  rows: BenchRow[]
  pass: boolean
}

/**
 * The journal's own work per request, timed in this process: the two clock reads and the `record`
 * the dispatcher makes, on a full 1000-entry journal, over URLs like the rounds'. Per block of
 * RECORDS, ns per request.
 */
function recordCostNs(urls: readonly string[]): number[] {
  const journal = new RequestJournal(1000)
  const RECORDS = 200_000
  const blocks: number[] = []
  for (let b = 0; b < 8; b++) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < RECORDS; i++) {
      journal.record({ method: 'GET', url: urls[i % urls.length]!, account: 'acct_enterprise', status: 200, reason: null, fault: null, wall: Date.now(), service: performance.now() })
    }
    // The first blocks warm the JIT up.
    if (b >= 2) blocks.push(Number(process.hrtime.bigint() - t0) / RECORDS)
  }
  return blocks
}

const CORE_BLOCK = 200
const CORE_GROUPS = 5
const CORE_PAIRS = 40

/**
 * The service core alone (no HTTP), one service with the journal on and one with it off, in
 * alternating blocks of CORE_BLOCK requests (limit=10 pages, the cheapest): each pair is timed in
 * the same few milliseconds, so the machine's load hits both alike. Per group of CORE_PAIRS pairs,
 * the median ratio of CPU per request, on / off.
 */
async function coreRatios(paths: readonly string[]): Promise<number[]> {
  const make = (journal: false | { size: number }) => createMockService({ now: NOW, rateLimit: false, journal })
  const on = make({ size: 1000 })
  const off = make(false)
  let next = 0
  const block = async (service: MockService) => {
    const t0 = process.cpuUsage()
    for (let i = 0; i < CORE_BLOCK; i++) await service.handle({ method: 'GET', url: paths[next++ % paths.length]!, headers: HEADERS })
    const t = process.cpuUsage(t0)
    return (t.user + t.system) / CORE_BLOCK
  }
  for (let i = 0; i < 10; i++) await block(on), await block(off)
  const groups: number[] = []
  for (let g = 0; g < CORE_GROUPS; g++) {
    const pairs: number[] = []
    for (let i = 0; i < CORE_PAIRS; i++) {
      // Alternate which side goes first within a pair.
      const [a, b] = i % 2 === 0 ? [await block(on), await block(off)] : [await block(off), await block(on)].reverse()
      pairs.push(a! / b!)
    }
    groups.push(median(pairs))
  }
  return groups
}

const ratios = (k: JournalKind) => k.on.map((x, i) => x.rate / k.off[i]!.rate)
const int = (x: number) => Math.round(x).toLocaleString('en-US')

export async function measureJournalCost(): Promise<JournalCost> {
  const ready = ensureWrk((line) => console.log(line))
  if (!ready.ok) {
    const why = `needs wrk as its load generator: ${ready.why}`
    return { skipped: why, kinds: [], recordNs: [], coreGroups: [], rows: [{ figure: `journal on / off: not measured (${why})`, goal: `>= ${JOURNAL_GOAL}`, verdict: 'not measured' }], pass: true }
  }
  const wrk = await createWrk()
  const common = [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--no-rate-limit', '--now', NOW]
  const on = await startChildServer('journal on', [...common, '--journal-size', '1000'])
  const off = await startChildServer('journal off', [...common, '--journal-size', '0'])
  try {
    const kinds: JournalKind[] = []
    let recordNs: number[] = []
    let coreGroups: number[] = []
    for (const { limit, label } of KINDS) {
      const set = createPageSet(await prefetchForwardPages(off.url, FIRST_START, PAGE_COUNT, limit), VARIANTS, limit)
      if (recordNs.length === 0) {
        recordNs = recordCostNs(set.paths(0, 10_000))
        coreGroups = await coreRatios(set.paths(0, 10_000))
      }
      const paths = await wrk.paths(`journal-${limit}`, set.paths(0, set.capacity))
      const run = async (server: typeof on, seconds: number): Promise<Run> => {
        const cpu0 = procCpuMs(server.pid)
        const r = await wrk.run({ baseUrl: server.url, paths, headers: HEADERS, connections: CONNECTIONS, threads: THREADS, seconds })
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${label}: ${r.errors} socket errors, ${r.non2xx} answers not 2xx in ${r.requests}`)
        return { ...r, serverCpuMs: procCpuMs(server.pid) - cpu0 }
      }
      await Promise.all([run(on, WARMUP_S), run(off, WARMUP_S)])
      const kind: JournalKind = { label, on: [], off: [] }
      for (let r = 0; r < ROUNDS; r++) {
        const [a, b] = await Promise.all([run(on, ROUND_S), run(off, ROUND_S)])
        kind.on.push(a)
        kind.off.push(b)
      }
      kinds.push(kind)
    }
    // The journal really was on: the server kept the newest 1000 requests.
    const kept = (await (await fetch(`${on.url}/_mock/requests`)).json()) as unknown[]
    if (kept.length !== 1000) throw new Error(`the journal-on server kept ${kept.length} requests, not 1000`)
    const rows = kinds.flatMap((k): BenchRow[] => {
      const r = ratios(k)
      // Server CPU per page, off / on: less swayed than the rate when other processes share the cores.
      const cpu = k.on.map((x, i) => k.off[i]!.serverCpuMs / k.off[i]!.requests / (x.serverCpuMs / x.requests))
      return [
        {
          figure: `journal on / off, ${k.label}: ${withSpread(r, 3)} (${int(median(k.on.map((x) => x.rate)))} / ${int(median(k.off.map((x) => x.rate)))} pages/s)`,
          goal: `>= ${JOURNAL_GOAL}`,
          verdict: verdictOfRuns(r, JOURNAL_GOAL),
        },
        { figure: `journal: server CPU per page off / on, ${k.label}: ${withSpread(cpu, 3)}`, goal: '', verdict: 'info' },
      ]
    })
    // The journal's work against the cheapest request there is (a limit=10 page, journal off), per block.
    const cheapest = median(kinds[0]!.off.map((x) => (x.serverCpuMs * 1e6) / x.requests))
    const share = recordNs.map((ns) => ns / cheapest)
    rows.unshift({
      figure: `journal's own work per request / server CPU of a limit=10 page: ${withSpread(share.map((x) => x * 100), 2, ' %')} (${fmt(median(recordNs), 0)} ns / ${fmt(cheapest / 1000, 1)} µs)`,
      goal: `<= ${fmt((1 - JOURNAL_GOAL) * 100, 0)} %`,
      verdict: verdictOfRuns(share, 1 - JOURNAL_GOAL, true),
    })
    rows.unshift({
      figure: `service core CPU per request, journal on / off (in-process, alternating blocks of ${CORE_BLOCK} limit=10 requests): ${fmt(median(coreGroups), 3)} (${fmt(spread(coreGroups).low, 3)}–${fmt(spread(coreGroups).high, 3)} over ${CORE_GROUPS} groups of ${CORE_PAIRS} pairs)`,
      goal: `<= ${fmt(2 - JOURNAL_GOAL, 2)}`,
      verdict: verdictOfRuns(coreGroups, 2 - JOURNAL_GOAL, true),
    })
    return { skipped: undefined, kinds, recordNs, coreGroups, rows, pass: rows.every((r) => r.verdict !== 'not met') }
  } finally {
    await on.stop()
    await off.stop()
    await wrk.close()
  }
}

export function reportJournalCost(r: JournalCost): string[] {
  const lines = [
    `journal. The request journal's cost: two serve processes (--journal-size 1000, --journal-size 0), each loaded by its own wrk -t${THREADS} -c${CONNECTIONS}`,
    `   at the same time, ${ROUNDS} rounds of ${ROUND_S} s after a ${WARMUP_S} s warm-up; ${PAGE_COUNT} pages x ${VARIANTS} URL spellings`,
  ]
  if (r.skipped) lines.push(`   NOTE: ${r.skipped}`)
  if (r.recordNs.length > 0) lines.push(`  the journal's own work per request (2 clock reads + record, in this process), ns per block: [${r.recordNs.map((x) => fmt(x, 0)).join(', ')}]`)
  for (const k of r.kinds) {
    const cpu = (xs: Run[]) => fmt(median(xs.map((x) => x.serverCpuMs / x.requests)), 3)
    lines.push(`  ${k.label}: pages/s per round on [${k.on.map((x) => int(x.rate)).join(', ')}], off [${k.off.map((x) => int(x.rate)).join(', ')}]; server CPU per page on ${cpu(k.on)} ms, off ${cpu(k.off)} ms`)
  }
  for (const row of r.rows) lines.push(`  ${row.figure}${row.goal ? `  (goal ${row.goal})` : ''}  ${row.verdict}`)
  return lines
}
