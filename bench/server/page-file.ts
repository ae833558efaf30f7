/** Hands the prefetched pages to the raw server child: one temp file, a JSON header then the bodies. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FetchedPage } from './prefetch-pages.js'

interface Header {
  limit: number
  pages: { start: number; length: number }[]
}

/** Writes `pages` to a fresh temp directory; `remove()` deletes it. */
export async function writePageFile(pages: readonly FetchedPage[], limit: number): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'market-candles-bench-'))
  const path = join(dir, 'pages.bin')
  const header = Buffer.from(JSON.stringify({ limit, pages: pages.map((p) => ({ start: p.start, length: p.body.length })) } satisfies Header))
  const size = Buffer.alloc(4)
  size.writeUInt32BE(header.length)
  await writeFile(path, Buffer.concat([size, header, ...pages.map((p) => p.body)]))
  return { path, remove: () => rm(dir, { recursive: true, force: true }) }
}

export async function readPageFile(path: string): Promise<{ limit: number; pages: FetchedPage[] }> {
  const data = await readFile(path)
  const headerLength = data.readUInt32BE(0)
  const header = JSON.parse(data.subarray(4, 4 + headerLength).toString('utf8')) as Header
  let offset = 4 + headerLength
  const pages = header.pages.map(({ start, length }) => {
    const body = data.subarray(offset, offset + length)
    offset += length
    return { start, body }
  })
  if (offset !== data.length) throw new Error(`${path}: ${data.length - offset} stray bytes`)
  return { limit: header.limit, pages }
}
