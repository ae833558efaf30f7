/**
 * Section `journal`: what the request journal costs the standalone server. Two `serve` processes,
 * one with the journal on (its default 1000 entries, full after the warm-up) and one with it off
 * (`--journal-size 0`), loaded in turn by wrk with the same URLs; the figure is the ratio of their
 * rates per round, so drift in the machine's load hits both alike.
 */
import { CLI } from './build-cli.js'
import { procCpuMs, startChildServer } from './child-server.js'
import { HEADERS, NOW } from './fixtures.js'
import { createPageSet } from './page-set.js'
import { prefetchForwardPages } from './prefetch-pages.js'
import { fmt, median, spread, withSpread } from './stats.js'
import { verdictOf, type BenchRow } from './table.js'
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
const CONNECTIONS = 16
const THREADS = 2
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
  rows: BenchRow[]
  pass: boolean
}

const ratios = (k: JournalKind) => k.on.map((x, i) => x.rate / k.off[i]!.rate)
const int = (x: number) => Math.round(x).toLocaleString('en-US')

export async function measureJournalCost(): Promise<JournalCost> {
  const ready = ensureWrk((line) => console.log(line))
  if (!ready.ok) {
    const why = `needs wrk as its load generator: ${ready.why}`
    return { skipped: why, kinds: [], rows: [{ figure: `journal on / off: not measured (${why})`, goal: `>= ${JOURNAL_GOAL}`, verdict: 'not measured' }], pass: true }
  }
  const wrk = await createWrk()
  const common = [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--no-rate-limit', '--now', NOW]
  const on = await startChildServer('journal on', [...common, '--journal-size', '1000'])
  const off = await startChildServer('journal off', [...common, '--journal-size', '0'])
  try {
    const kinds: JournalKind[] = []
    for (const { limit, label } of KINDS) {
      const set = createPageSet(await prefetchForwardPages(off.url, FIRST_START, PAGE_COUNT, limit), VARIANTS, limit)
      const paths = await wrk.paths(`journal-${limit}`, set.paths(0, set.capacity))
      const run = async (server: typeof on, seconds: number): Promise<Run> => {
        const cpu0 = procCpuMs(server.pid)
        const r = await wrk.run({ baseUrl: server.url, paths, headers: HEADERS, connections: CONNECTIONS, threads: THREADS, seconds })
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${label}: ${r.errors} socket errors, ${r.non2xx} answers not 2xx in ${r.requests}`)
        return { ...r, serverCpuMs: procCpuMs(server.pid) - cpu0 }
      }
      await run(on, WARMUP_S)
      await run(off, WARMUP_S)
      const kind: JournalKind = { label, on: [], off: [] }
      for (let r = 0; r < ROUNDS; r++) {
        // Alternate which goes first, so a trend in the machine's load does not favour one side.
        if (r % 2 === 0) kind.on.push(await run(on, ROUND_S)), kind.off.push(await run(off, ROUND_S))
        else kind.off.push(await run(off, ROUND_S)), kind.on.push(await run(on, ROUND_S))
      }
      kinds.push(kind)
    }
    // The journal really was on: the server kept the newest 1000 requests.
    const kept = (await (await fetch(`${on.url}/_mock/requests`)).json()) as unknown[]
    if (kept.length !== 1000) throw new Error(`the journal-on server kept ${kept.length} requests, not 1000`)
    const rows = kinds.flatMap((k): BenchRow[] => {
      const r = ratios(k)
      const { low, high } = spread(r)
      // Server CPU per page, off / on: less swayed than the rate when other processes share the cores.
      const cpu = k.on.map((x, i) => k.off[i]!.serverCpuMs / k.off[i]!.requests / (x.serverCpuMs / x.requests))
      return [
        {
          figure: `journal on / off, ${k.label}: ${withSpread(r, 3)} (${int(median(k.on.map((x) => x.rate)))} / ${int(median(k.off.map((x) => x.rate)))} pages/s)`,
          goal: `>= ${JOURNAL_GOAL}`,
          verdict: verdictOf(low, high, JOURNAL_GOAL),
        },
        { figure: `journal: server CPU per page off / on, ${k.label}: ${withSpread(cpu, 3)}`, goal: '', verdict: 'info' },
      ]
    })
    return { skipped: undefined, kinds, rows, pass: rows.every((r) => r.verdict !== 'not met') }
  } finally {
    await on.stop()
    await off.stop()
    await wrk.close()
  }
}

export function reportJournalCost(r: JournalCost): string[] {
  const lines = [
    `journal. The request journal's cost: two serve processes (--journal-size 1000, --journal-size 0), wrk -t${THREADS} -c${CONNECTIONS},`,
    `   ${ROUNDS} rounds of ${ROUND_S} s each after a ${WARMUP_S} s warm-up, alternating which goes first; ${PAGE_COUNT} pages x ${VARIANTS} URL spellings`,
  ]
  if (r.skipped) lines.push(`   NOTE: ${r.skipped}`)
  for (const k of r.kinds) {
    const cpu = (xs: Run[]) => fmt(median(xs.map((x) => x.serverCpuMs / x.requests)), 3)
    lines.push(`  ${k.label}: pages/s per round on [${k.on.map((x) => int(x.rate)).join(', ')}], off [${k.off.map((x) => int(x.rate)).join(', ')}]; server CPU per page on ${cpu(k.on)} ms, off ${cpu(k.off)} ms`)
  }
  for (const row of r.rows) lines.push(`  ${row.figure}${row.goal ? `  (goal ${row.goal})` : ''}  ${row.verdict}`)
  return lines
}
