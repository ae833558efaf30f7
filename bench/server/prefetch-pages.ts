/** Walks forward through the 1m history page by page (next start = last close_ts + 1 ms, contract: paging) and keeps each page's bytes. */
import { Agent, get } from 'node:http'
import { HEADERS, PAGE_LIMIT, farUrl } from '../support/fixtures.js'

interface Row {
  close_ts: string
}

/** One page as the reference server sent it. */
export interface FetchedPage {
  /** The `start` it was fetched with: just after a grid point (a close_ts + 1 ms). */
  start: number
  body: Buffer
}

function fetchBytes(agent: Agent, url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent, headers: HEADERS }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${url}: ${res.statusCode}`))))
      res.on('error', reject)
    })
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout on ${url}`)))
    req.on('error', reject)
  })
}

/** `count` consecutive pages of `limit` from `startMs` on, each starting 1 ms after the previous page's last close_ts. */
export async function prefetchForwardPages(baseUrl: string, startMs: number, count: number, limit = PAGE_LIMIT): Promise<FetchedPage[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const pages: FetchedPage[] = []
  try {
    let start = startMs
    for (let i = 0; i < count; i++) {
      const body = await fetchBytes(agent, `${baseUrl}${farUrl(start, limit)}`)
      const rows = JSON.parse(body.toString('utf8')) as Row[]
      if (rows.length !== limit) throw new Error(`${rows.length} candles at ${farUrl(start, limit)}, expected ${limit}`)
      pages.push({ start, body })
      start = Date.parse(rows[rows.length - 1]!.close_ts) + 1
    }
  } finally {
    agent.destroy()
  }
  return pages
}
