/** Measurement 2: pages/s of the standalone reference server vs a raw server sending the same bytes. */
import { createMockService } from '../mocks/core/service.js'
import { startMockServer } from '../mocks/server/http-server.js'
import { HEADERS, NOW, PAGE_LIMIT } from './fixtures.js'
import { createClient, runRound, type RoundResult } from './http-client.js'
import { prefetchForwardPages } from './prefetch-pages.js'
import { startRawServer } from './raw-server.js'
import { fmt, median, verdict } from './stats.js'

export const SERVER_TARGET = 0.5

const PAGE_COUNT = 200
const FIRST_START = Date.UTC(2016, 0, 1)
const CONCURRENCY = 4
const PAGES_PER_ROUND = PAGE_COUNT
const MAX_ROUND_PAIRS = 8
const BUDGET_MS = 30_000

export interface ServerThroughput {
  pageCount: number
  pageBytes: number
  ref: RoundResult[]
  raw: RoundResult[]
  refRate: number
  rawRate: number
  ratio: number
  pass: boolean
}

const rate = (r: RoundResult) => (r.pages * 1000) / r.ms

export async function measureServerThroughput(): Promise<ServerThroughput> {
  const service = createMockService({ now: NOW, rateLimit: false })
  const refServer = await startMockServer({ port: 0, host: '127.0.0.1', now: NOW, rateLimit: false, service })
  try {
    const pages = await prefetchForwardPages(refServer.url, FIRST_START, PAGE_COUNT)
    const paths = [...pages.keys()]
    const rawServer = await startRawServer(pages)
    const ref = createClient(refServer.url, HEADERS, CONCURRENCY)
    const raw = createClient(rawServer.url, HEADERS, CONCURRENCY)
    try {
      // Warm-up: JIT and open keep-alive sockets on both sides.
      await runRound(ref, paths, pages, PAGES_PER_ROUND, CONCURRENCY)
      await runRound(raw, paths, pages, PAGES_PER_ROUND, CONCURRENCY)

      const refRounds: RoundResult[] = []
      const rawRounds: RoundResult[] = []
      const deadline = performance.now() + BUDGET_MS
      // ABBA order: each pair runs ref then raw, the next raw then ref.
      for (let i = 0; i < MAX_ROUND_PAIRS && performance.now() < deadline; i++) {
        if (i % 2 === 0) {
          refRounds.push(await runRound(ref, paths, pages, PAGES_PER_ROUND, CONCURRENCY))
          rawRounds.push(await runRound(raw, paths, pages, PAGES_PER_ROUND, CONCURRENCY))
        } else {
          rawRounds.push(await runRound(raw, paths, pages, PAGES_PER_ROUND, CONCURRENCY))
          refRounds.push(await runRound(ref, paths, pages, PAGES_PER_ROUND, CONCURRENCY))
        }
      }
      const refRate = median(refRounds.map(rate))
      const rawRate = median(rawRounds.map(rate))
      const ratio = refRate / rawRate
      const pageBytes = [...pages.values()].reduce((sum, b) => sum + b.length, 0) / pages.size
      return { pageCount: pages.size, pageBytes, ref: refRounds, raw: rawRounds, refRate, rawRate, ratio, pass: ratio >= SERVER_TARGET }
    } finally {
      ref.close()
      raw.close()
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
    return `${pages} pages in ${fmt(ms, 0)} ms = ${fmt((pages * 1000) / ms, 1)} pages/s overall`
  }
  return [
    `2. Standalone server throughput (${r.pageCount} distinct ${PAGE_LIMIT}-candle 1m pages from 2016-01-01, avg ${fmt(r.pageBytes / 1024, 1)} KiB,`,
    `   keep-alive node:http client, concurrency ${CONCURRENCY}, ${PAGES_PER_ROUND} pages/round, ${r.ref.length} rounds each, ABBA order)`,
    `  reference (startMockServer): pages/s per round [${rounds(r.ref)}]; ${total(r.ref)}`,
    `  raw node:http (same bytes) : pages/s per round [${rounds(r.raw)}]; ${total(r.raw)}`,
    `  reference/raw = ${fmt(r.refRate, 1)} / ${fmt(r.rawRate, 1)} (median pages/s) = ${fmt(r.ratio)}  (target >= ${SERVER_TARGET})  ${verdict(r.pass)}`,
  ]
}
