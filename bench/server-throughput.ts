/**
 * Measurement 2: pages/s of the standalone reference server vs a raw server sending the same bytes.
 * Each server runs in its own child process (the reference one through the real CLI, dist/cli.js);
 * the load driver stays in this process, so neither server shares an event loop with the client.
 */
import { CLI } from './build-cli.js'
import { startChildServer, type ChildServer } from './child-server.js'
import { HEADERS, NOW, PAGE_LIMIT } from './fixtures.js'
import { createClient, runRound, type Client, type RoundResult } from './http-client.js'
import { writePageFile } from './page-file.js'
import { createPageSet, type PageSet } from './page-set.js'
import { prefetchForwardPages } from './prefetch-pages.js'
import { fmt, median, verdict } from './stats.js'

export const SERVER_TARGET = 0.5

const PAGE_COUNT = 200
const FIRST_START = Date.UTC(2016, 0, 1) + 1 // just after a grid point, like every later page start
const CONCURRENCY = 4
const PAGES_PER_ROUND = 400
const MAX_ROUND_PAIRS = 8
const VARIANTS = Math.ceil(((MAX_ROUND_PAIRS + 1) * PAGES_PER_ROUND) / PAGE_COUNT) // + 1 for the warm-up round
const BUDGET_MS = 40_000

/** One timed round, with the CPU time its server child and this (client) process spent on it. */
export interface Round extends RoundResult {
  serverCpuMs: number
  clientCpuMs: number
}

export interface ServerThroughput {
  pageCount: number
  distinctUrls: number
  pageBytes: number
  ref: Round[]
  raw: Round[]
  refRate: number
  rawRate: number
  ratio: number
  pass: boolean
  /** Requests re-sent after the keep-alive race (see http-client.ts), per server. */
  retries: { ref: number; raw: number }
}

const rate = (r: RoundResult) => (r.pages * 1000) / r.ms
const clientCpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** One server's client and its position in the shared URL sequence. */
function driver(server: ChildServer, client: Client, set: PageSet) {
  let sent = 0
  return async (exact = false): Promise<Round> => {
    const paths = set.paths(sent, PAGES_PER_ROUND)
    sent += PAGES_PER_ROUND
    const server0 = server.cpuMs()
    const client0 = clientCpuMs()
    const round = await runRound(client, paths, set.bytes, CONCURRENCY, exact)
    return { ...round, serverCpuMs: server.cpuMs() - server0, clientCpuMs: clientCpuMs() - client0 }
  }
}

export async function measureServerThroughput(): Promise<ServerThroughput> {
  const children: ChildServer[] = []
  const clients: Client[] = []
  let pageFile: Awaited<ReturnType<typeof writePageFile>> | undefined
  try {
    const refServer = await startChildServer('reference server', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--no-rate-limit', '--now', NOW])
    children.push(refServer)
    const fetched = await prefetchForwardPages(refServer.url, FIRST_START, PAGE_COUNT)
    const set = createPageSet(fetched, VARIANTS)
    pageFile = await writePageFile(fetched)
    const rawServer = await startChildServer('raw server', ['--import', 'tsx', 'bench/raw-server-child.ts', pageFile.path, String(VARIANTS)])
    children.push(rawServer)
    await pageFile.remove()
    pageFile = undefined

    const refClient = createClient(refServer.url, HEADERS, CONCURRENCY)
    const rawClient = createClient(rawServer.url, HEADERS, CONCURRENCY)
    clients.push(refClient, rawClient)
    const ref = driver(refServer, refClient, set)
    const raw = driver(rawServer, rawClient, set)
    // Warm-up (JIT, keep-alive sockets), byte-comparing every answer of both servers.
    await ref(true)
    await raw(true)

    const refRounds: Round[] = []
    const rawRounds: Round[] = []
    const deadline = performance.now() + BUDGET_MS
    // ABBA order: one pair runs ref then raw, the next raw then ref.
    for (let i = 0; i < MAX_ROUND_PAIRS && performance.now() < deadline; i++) {
      if (i % 2 === 0) {
        refRounds.push(await ref())
        rawRounds.push(await raw())
      } else {
        rawRounds.push(await raw())
        refRounds.push(await ref())
      }
    }
    const refRate = median(refRounds.map(rate))
    const rawRate = median(rawRounds.map(rate))
    const ratio = refRate / rawRate
    const pageBytes = fetched.reduce((sum, p) => sum + p.body.length, 0) / fetched.length
    return {
      pageCount: fetched.length,
      distinctUrls: (refRounds.length + 1) * PAGES_PER_ROUND,
      pageBytes,
      ref: refRounds,
      raw: rawRounds,
      refRate,
      rawRate,
      ratio,
      pass: ratio >= SERVER_TARGET,
      retries: { ref: refClient.retries, raw: rawClient.retries },
    }
  } finally {
    for (const client of clients) client.close()
    await Promise.all(children.map((child) => child.stop()))
    await pageFile?.remove()
  }
}

export function reportServerThroughput(r: ServerThroughput): string[] {
  const rounds = (xs: Round[]) => xs.map((x) => fmt(rate(x), 0)).join(', ')
  const total = (xs: Round[]) => {
    const pages = xs.reduce((s, x) => s + x.pages, 0)
    const ms = xs.reduce((s, x) => s + x.ms, 0)
    const serverCpu = xs.reduce((s, x) => s + x.serverCpuMs, 0)
    const clientCpu = xs.reduce((s, x) => s + x.clientCpuMs, 0)
    return (
      `${pages} pages in ${fmt(ms, 0)} ms = ${fmt((pages * 1000) / ms, 1)} pages/s; ` +
      `CPU/page: server ${fmt(serverCpu / pages, 2)} ms, client ${fmt(clientCpu / pages, 2)} ms`
    )
  }
  return [
    `2. Standalone server throughput: ${r.pageCount} consecutive ${PAGE_LIMIT}-candle 1m pages from 2016-01-01 (avg ${fmt(r.pageBytes / 1024, 1)} KiB),`,
    `   ${r.distinctUrls} distinct URLs per server (start + 0..${VARIANTS - 1} ms), keep-alive node:http client (this process), concurrency ${CONCURRENCY},`,
    `   each server in its own child process; ${PAGES_PER_ROUND} pages/round after 1 byte-checked warm-up round, ${r.ref.length} rounds each in ABBA order`,
    `  reference (node ${CLI} serve): pages/s per round [${rounds(r.ref)}]`,
    `      ${total(r.ref)}`,
    `  raw node:http (same bytes)    : pages/s per round [${rounds(r.raw)}]`,
    `      ${total(r.raw)}`,
    ...(r.retries.ref + r.retries.raw > 0 ? [`  (requests re-sent after a keep-alive idle close: reference ${r.retries.ref}, raw ${r.retries.raw})`] : []),
    `  reference/raw = ${fmt(r.refRate, 1)} / ${fmt(r.rawRate, 1)} (median pages/s) = ${fmt(r.ratio)}  (target >= ${SERVER_TARGET})  ${verdict(r.pass)}`,
  ]
}
