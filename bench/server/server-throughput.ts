/**
 * Measurement 2: pages/s of the standalone reference server against what users would pick instead
 * (Prism serving a static example; json-server serving a JSON file) and against a server sending the
 * same bytes from memory (the static limit: what this machine and the load generator reach at all).
 * Every server runs in its own process; the load comes from wrk (wrk.ts), not from Node, so the
 * client is not the bottleneck: the static-bytes rate shows how far wrk goes, and wrk's own CPU is
 * reported next to each server's.
 */
import { fileURLToPath } from 'node:url'
import { ensureAlternatives, startJsonServer, startPrism, type PageKind, type ToolServer } from './alternatives.js'
import { CLI } from '../support/build-cli.js'
import { procCpuMs, startChildServer, type ChildServer } from '../support/child-server.js'
import { CANDLE_PATH, HEADERS, NOW } from '../support/fixtures.js'
import { writePageFile } from './page-file.js'
import { createPageSet } from './page-set.js'
import { prefetchForwardPages, type FetchedPage } from './prefetch-pages.js'
import { fmt, median, spread, withSpread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'
import { createWrk, ensureWrk, type WrkRun } from './wrk.js'

/** The reference server must serve at least this many times Prism's pages/s. */
export const PRISM_GOAL = 4
/** wrk must reach at least this many times the reference server's rate on static bytes (else the client could be the limit). */
export const HEADROOM_GOAL = 2
/** ... or wrk must have used less than this share of one core (%) while loading the reference server. */
export const WRK_CORE_GOAL = 50

const KINDS: { kind: PageKind; limit: number; label: string }[] = [
  { kind: 'page1000', limit: 1000, label: '1000-candle pages' },
  { kind: 'page10', limit: 10, label: 'limit=10 pages' },
]
const FIRST_START = Date.UTC(2016, 0, 1) + 1 // just after a grid point, like every later page start
const PAGE_COUNT = 100
const RAW_SERVER_CHILD = fileURLToPath(new URL('./raw-server-child.ts', import.meta.url))
/** URL spellings per page (start + 0..VARIANTS-1 ms): 10,000 distinct URLs per kind, so no URL-keyed cache can help. */
const VARIANTS = 100
const CONNECTIONS = 16
const THREADS = 2
const WARMUP_S = 1
const ROUND_S = 2
const ROUNDS = 3

type Name = 'reference' | 'static' | 'prism' | 'jsonServer'
const LABEL: Record<Name, string> = { reference: 'reference server', static: 'static bytes', prism: 'Prism', jsonServer: 'json-server' }

interface Target {
  name: Name
  label: string
  url: string
  pid: number
  /** The path list file and headers wrk sends, per page kind. */
  load: Record<PageKind, { paths: string; headers: Record<string, string> }>
}

export interface Round extends WrkRun {
  serverCpuMs: number
}

export interface KindResult {
  kind: PageKind
  label: string
  limit: number
  pageBytes: number
  rounds: Partial<Record<Name, Round[]>>
}

export interface ServerThroughput {
  /** Why nothing (or not everything) was measured. */
  skipped: string[]
  servers: Partial<Record<Name, string>>
  kinds: KindResult[]
  rows: BenchRow[]
  pass: boolean
}

const rates = (xs: readonly Round[] | undefined) => (xs ?? []).map((x) => x.rate)
const perRound = (a: readonly Round[] | undefined, b: readonly Round[] | undefined) => (a && b ? a.map((x, i) => x.rate / b[i]!.rate) : [])
const int = (x: number) => Math.round(x).toLocaleString('en-US')

/** GET `path` and check the answer is the expected page (the same JSON; byte for byte where `exact`). */
async function checkAnswer(target: Target, path: string, headers: Record<string, string>, expected: Buffer, exact: boolean): Promise<void> {
  const res = await fetch(`${target.url}${path}`, { headers })
  const body = Buffer.from(await res.arrayBuffer())
  const same = exact ? body.equals(expected) : JSON.stringify(JSON.parse(body.toString('utf8'))) === JSON.stringify(JSON.parse(expected.toString('utf8')))
  if (res.status !== 200 || !same) throw new Error(`${target.label} ${path}: status ${res.status}, ${body.length} bytes; not the expected page (${expected.length} bytes)`)
}

export async function measureServerThroughput(): Promise<ServerThroughput> {
  const skipped: string[] = []
  const log = (line: string) => console.log(line)
  const wrkReady = ensureWrk(log)
  if (!wrkReady.ok) return notMeasured([`section 2 needs wrk as its load generator: ${wrkReady.why}`])
  const tools = ensureAlternatives(log)
  if (!tools.ok) skipped.push(`Prism and json-server not measured: ${tools.why}`)

  const stops: (() => Promise<void>)[] = []
  const wrk = await createWrk()
  try {
    const ref = await startChildServer('reference server', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--no-rate-limit', '--now', NOW])
    stops.push(ref.stop)
    const fetched = {} as Record<PageKind, FetchedPage[]>
    for (const { kind, limit } of KINDS) fetched[kind] = await prefetchForwardPages(ref.url, FIRST_START, PAGE_COUNT, limit)
    const sets = Object.fromEntries(KINDS.map(({ kind, limit }) => [kind, createPageSet(fetched[kind], VARIANTS, limit)])) as Record<PageKind, ReturnType<typeof createPageSet>>

    const files = await Promise.all(KINDS.map(({ kind, limit }) => writePageFile(fetched[kind], limit)))
    let staticServer: ChildServer
    try {
      staticServer = await startChildServer('static bytes', ['--import', 'tsx', RAW_SERVER_CHILD, ...files.flatMap((f) => [f.path, String(VARIANTS)])])
    } finally {
      await Promise.all(files.map((f) => f.remove()))
    }
    stops.push(staticServer.stop)

    const allPaths = {} as Record<PageKind, string>
    for (const { kind } of KINDS) allPaths[kind] = await wrk.paths(kind, sets[kind].paths(0, sets[kind].capacity))
    const sameUrls = (headers: Record<string, string>) =>
      Object.fromEntries(KINDS.map(({ kind }) => [kind, { paths: allPaths[kind], headers }])) as Target['load']
    const targets: Target[] = [
      { name: 'reference', label: `reference server (node ${CLI} serve)`, url: ref.url, pid: ref.pid, load: sameUrls(HEADERS) },
      { name: 'static', label: 'static bytes (node:http, pages from memory)', url: staticServer.url, pid: staticServer.pid, load: sameUrls(HEADERS) },
    ]
    if (tools.ok) {
      const examples = Object.fromEntries(KINDS.map(({ kind }) => [kind, JSON.parse(fetched[kind][0]!.body.toString('utf8'))])) as Record<PageKind, unknown>
      const add = async (name: Name, start: () => Promise<ToolServer>) => {
        try {
          const tool = await start()
          stops.push(tool.stop)
          const load = {} as Target['load']
          for (const { kind } of KINDS) {
            const route = tool.routes[kind]
            // Prism answers whatever the query; json-server would read the query as filters.
            load[kind] = name === 'prism' ? { paths: allPaths[kind], headers: { ...HEADERS, ...route.headers } } : { paths: await wrk.paths(`${name}-${kind}`, [route.path]), headers: route.headers }
          }
          targets.push({ name, label: tool.name, url: tool.url, pid: tool.pid, load })
        } catch (error) {
          skipped.push(`${LABEL[name]} not measured: ${(error as Error).message}`)
        }
      }
      await add('prism', () => startPrism(examples, CANDLE_PATH))
      await add('jsonServer', () => startJsonServer(examples))
    }

    const kinds: KindResult[] = []
    for (const { kind, limit, label } of KINDS) {
      const first = fetched[kind][0]!
      for (const t of targets) {
        const path = t.name === 'jsonServer' ? `/${kind}` : sets[kind].paths(0, 1)[0]!
        await checkAnswer(t, path, t.load[kind].headers, first.body, t.name === 'reference' || t.name === 'static')
      }
      const minBytes = Math.min(...fetched[kind].map((p) => p.body.length))
      const run = async (t: Target, seconds: number): Promise<Round> => {
        const cpu0 = procCpuMs(t.pid)
        const r = await wrk.run({ baseUrl: t.url, ...t.load[kind], connections: CONNECTIONS, threads: THREADS, seconds })
        const serverCpuMs = procCpuMs(t.pid) - cpu0
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${t.label}, ${label}: ${r.errors} socket errors, ${r.non2xx} answers not 2xx/3xx in ${r.requests}`)
        if (r.bytes / r.requests < minBytes) throw new Error(`${t.label}, ${label}: ${fmt(r.bytes / r.requests, 0)} bytes per answer, a page is at least ${minBytes}`)
        return { ...r, serverCpuMs }
      }
      for (const t of targets) await run(t, WARMUP_S)
      const rounds: KindResult['rounds'] = {}
      for (let r = 0; r < ROUNDS; r++) {
        // Each round visits every server, starting one further along, so drift hits all alike.
        for (let k = 0; k < targets.length; k++) {
          const t = targets[(k + r) % targets.length]!
          ;(rounds[t.name] ??= []).push(await run(t, ROUND_S))
        }
      }
      kinds.push({ kind, label, limit, pageBytes: fetched[kind].reduce((s, p) => s + p.body.length, 0) / fetched[kind].length, rounds })
    }
    const servers = Object.fromEntries(targets.map((t) => [t.name, t.label])) as ServerThroughput['servers']
    const rows = kinds.flatMap((k) => rowsOf(k, skipped))
    return { skipped, servers, kinds, rows, pass: rows.every((r) => r.verdict !== 'not met') }
  } finally {
    for (const stop of stops.reverse()) await stop()
    await wrk.close()
  }
}

function notMeasured(why: string[]): ServerThroughput {
  const rows: BenchRow[] = KINDS.map(({ label }) => ({ figure: `reference / Prism, ${label}: not measured (${why.join('; ')})`, goal: `>= ${PRISM_GOAL}×`, verdict: 'not measured' }))
  return { skipped: why, servers: {}, kinds: [], rows, pass: true }
}

function rowsOf(k: KindResult, skipped: string[]): BenchRow[] {
  const { reference, static: bytes, prism, jsonServer } = k.rounds
  const rows: BenchRow[] = []
  const vsPrism = perRound(reference, prism)
  if (vsPrism.length > 0) {
    rows.push({
      figure: `reference server / Prism, ${k.label}: ${withSpread(vsPrism, 2, '×')} (${int(median(rates(reference)))} / ${int(median(rates(prism)))} pages/s)`,
      goal: `>= ${PRISM_GOAL}×`,
      verdict: verdictOfRuns(vsPrism, PRISM_GOAL),
    })
  } else {
    rows.push({ figure: `reference server / Prism, ${k.label}: not measured (${skipped.join('; ')})`, goal: `>= ${PRISM_GOAL}×`, verdict: 'not measured' })
  }
  const others = [jsonServer && `json-server ${int(median(rates(jsonServer)))}`].filter(Boolean)
  rows.push({
    figure:
      `reference server / static bytes (the limit), ${k.label}: ${withSpread(perRound(reference, bytes), 3)}` +
      ` (static ${int(median(rates(bytes)))} pages/s${others.length ? `; ${others.join(', ')} pages/s` : ''})`,
    goal: '',
    verdict: 'info',
  })
  // The generator is not the limit when the same wrk drives static bytes much faster, or when it sat
  // idle most of the time (under half a core: its threads were waiting for the server, not busy).
  const headroom = perRound(bytes, reference)
  const wrkCore = (reference ?? []).map((x) => (100 * x.cpuMs) / (x.seconds * 1000))
  const byHeadroom = verdictOfRuns(headroom, HEADROOM_GOAL)
  const byIdle = verdictOfRuns(wrkCore, WRK_CORE_GOAL, true)
  rows.push({
    figure: `load generator, ${k.label}: wrk drove static bytes at ${withSpread(headroom, 1, '×')} the reference server's rate, and used ${withSpread(wrkCore, 0, ' %')} of one core against it`,
    goal: `>= ${HEADROOM_GOAL}× or < ${WRK_CORE_GOAL} %`,
    verdict: byHeadroom === 'met' || byIdle === 'met' ? 'met' : byHeadroom === 'inside the spread' || byIdle === 'inside the spread' ? 'inside the spread' : 'not met',
  })
  return rows
}

export function reportServerThroughput(r: ServerThroughput): string[] {
  const lines = [
    `2. Server throughput: consecutive 1m pages from 2016-01-01, ${PAGE_COUNT} pages x ${VARIANTS} URL spellings per page size; wrk -t${THREADS} -c${CONNECTIONS} (keep-alive),`,
    `   ${ROUNDS} rounds of ${ROUND_S} s per server after a ${WARMUP_S} s warm-up, servers in rotated order; every server's answer checked against the page first`,
    `   (byte for byte for the reference and static servers; the same JSON for Prism and json-server, which serve one fixed example page)`,
    ...Object.entries(r.servers).map(([name, label]) => `   ${LABEL[name as Name].padEnd(16)}: ${label}`),
    ...r.skipped.map((s) => `   NOTE: ${s}`),
  ]
  for (const k of r.kinds) {
    lines.push(`  ${k.label} (avg ${fmt(k.pageBytes / 1024, 1)} KiB):`)
    for (const [name, rounds] of Object.entries(k.rounds) as [Name, Round[]][]) {
      const cpu = (xs: Round[], key: 'serverCpuMs' | 'cpuMs') => median(xs.map((x) => x[key] / x.requests))
      lines.push(
        `    ${LABEL[name].padEnd(16)} pages/s per round [${rounds.map((x) => int(x.rate)).join(', ')}]; CPU per page: server ${fmt(cpu(rounds, 'serverCpuMs'), 3)} ms, wrk ${fmt(cpu(rounds, 'cpuMs'), 3)} ms`,
      )
    }
  }
  for (const row of r.rows) lines.push(`  ${row.figure}${row.goal ? `  (goal ${row.goal})` : ''}  ${row.verdict}`)
  return lines
}
