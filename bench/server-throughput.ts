/** Measurement 2: pages/s of the standalone reference server vs a raw server sending the same bytes. */
import { createMockService } from '../mocks/core/service.js'
import { startMockServer } from '../mocks/server/http-server.js'
import { HEADERS, NOW, PAGE_LIMIT } from './fixtures.js'
import { createClient, runRound, type Client, type RoundResult } from './http-client.js'
import { createPageSet, type PageSet } from './page-set.js'
import { prefetchForwardPages } from './prefetch-pages.js'
import { startRawServer } from './raw-server.js'
import { fmt, median, verdict } from './stats.js'

export const SERVER_TARGET = 0.5

const PAGE_COUNT = 200
const FIRST_START = Date.UTC(2016, 0, 1) + 1 // just after a grid point, like every later page start
const CONCURRENCY = 4
const PAGES_PER_ROUND = 400
const MAX_ROUND_PAIRS = 8
const VARIANTS = Math.ceil(((MAX_ROUND_PAIRS + 1) * PAGES_PER_ROUND) / PAGE_COUNT) // + 1 for the warm-up round
const BUDGET_MS = 30_000

export interface ServerThroughput {
  pageCount: number
  distinctUrls: number
  pageBytes: number
  ref: RoundResult[]
  raw: RoundResult[]
  refRate: number
  rawRate: number
  ratio: number
  pass: boolean
}

const rate = (r: RoundResult) => (r.pages * 1000) / r.ms

/** One server's client and its position in the shared URL sequence. */
function driver(client: Client, set: PageSet) {
  let sent = 0
  return (exact = false) => {
    const paths = set.paths(sent, PAGES_PER_ROUND)
    sent += PAGES_PER_ROUND
    return runRound(client, paths, set.bytes, CONCURRENCY, exact)
  }
}

export async function measureServerThroughput(): Promise<ServerThroughput> {
  const service = createMockService({ now: NOW, rateLimit: false })
  const refServer = await startMockServer({ port: 0, host: '127.0.0.1', now: NOW, rateLimit: false, service })
  try {
    const fetched = await prefetchForwardPages(refServer.url, FIRST_START, PAGE_COUNT)
    const set = createPageSet(fetched, VARIANTS)
    const rawServer = await startRawServer(set.bytes)
    const refClient = createClient(refServer.url, HEADERS, CONCURRENCY)
    const rawClient = createClient(rawServer.url, HEADERS, CONCURRENCY)
    try {
      const ref = driver(refClient, set)
      const raw = driver(rawClient, set)
      // Warm-up (JIT, keep-alive sockets), byte-comparing every answer of both servers.
      await ref(true)
      await raw(true)

      const refRounds: RoundResult[] = []
      const rawRounds: RoundResult[] = []
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
      }
    } finally {
      refClient.close()
      rawClient.close()
      await rawServer.close()
    }
  } finally {
    await refServer.close()
  }
}

export function reportServerThroughput(r: ServerThroughput): string[] {
  const rounds = (xs: RoundResult[]) => xs.map((x) => fmt(rate(x), 0)).join(', ')
  const total = (xs: RoundResult[]) => {
    const pages = xs.reduce((s, x) => s + x.pages, 0)
    const ms = xs.reduce((s, x) => s + x.ms, 0)
    return `${pages} pages in ${fmt(ms, 0)} ms = ${fmt((pages * 1000) / ms, 1)} pages/s`
  }
  return [
    `2. Standalone server throughput: ${r.pageCount} consecutive ${PAGE_LIMIT}-candle 1m pages from 2016-01-01 (avg ${fmt(r.pageBytes / 1024, 1)} KiB),`,
    `   ${r.distinctUrls} distinct URLs per server (start + 0..${VARIANTS - 1} ms), keep-alive node:http client, concurrency ${CONCURRENCY},`,
    `   ${PAGES_PER_ROUND} pages/round after 1 byte-checked warm-up round, ${r.ref.length} rounds each in ABBA order`,
    `  reference (startMockServer): pages/s per round [${rounds(r.ref)}]; ${total(r.ref)}`,
    `  raw node:http (same bytes) : pages/s per round [${rounds(r.raw)}]; ${total(r.raw)}`,
    `  reference/raw = ${fmt(r.refRate, 1)} / ${fmt(r.rawRate, 1)} (median pages/s) = ${fmt(r.ratio)}  (target >= ${SERVER_TARGET})  ${verdict(r.pass)}`,
  ]
}
