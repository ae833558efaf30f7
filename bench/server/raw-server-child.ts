/**
 * The static-bytes baseline as its own process:
 * `node --import tsx bench/server/raw-server-child.ts PAGE_FILE VARIANTS [PAGE_FILE VARIANTS ...]`.
 * Serves every URL spelling of the pages in each PAGE_FILE (see page-set.ts) from memory, prints
 * `listening on http://127.0.0.1:PORT`, and exits on SIGTERM or when its stdin closes (the bench died).
 */
import { createPageSet } from './page-set.js'
import { readPageFile } from './page-file.js'
import { startRawServer } from './raw-server.js'

const args = process.argv.slice(2)
if (args.length === 0 || args.length % 2 !== 0) {
  console.error('usage: raw-server-child.ts PAGE_FILE VARIANTS [PAGE_FILE VARIANTS ...]')
  process.exit(2)
}
const bytes = new Map<string, Buffer>()
for (let i = 0; i < args.length; i += 2) {
  const { limit, pages } = await readPageFile(args[i]!)
  for (const [url, body] of createPageSet(pages, Number(args[i + 1]), limit).bytes) bytes.set(url, body)
}
const server = await startRawServer(bytes)
const stop = () => void server.close().finally(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
process.stdin.on('end', stop)
process.stdin.on('error', stop)
process.stdin.resume()
console.log(`listening on ${server.url}`)
