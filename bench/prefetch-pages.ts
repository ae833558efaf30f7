/** Walks forward through the 1m history page by page (D11 cursor) and keeps each page's bytes. */
import { Agent, get } from 'node:http'
import { HEADERS, farUrl } from './fixtures.js'

interface Row {
  close_ts: string
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

/** `count` distinct consecutive page paths from `startMs` on, with the reference server's bytes. */
export async function prefetchForwardPages(baseUrl: string, startMs: number, count: number): Promise<Map<string, Buffer>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const pages = new Map<string, Buffer>()
  try {
    let start = startMs
    for (let i = 0; i < count; i++) {
      const path = farUrl(start)
      const body = await fetchBytes(agent, `${baseUrl}${path}`)
      const rows = JSON.parse(body.toString('utf8')) as Row[]
      if (rows.length === 0) throw new Error(`empty page at ${path}`)
      pages.set(path, body)
      start = Date.parse(rows[rows.length - 1]!.close_ts) + 1
    }
  } finally {
    agent.destroy()
  }
  return pages
}
