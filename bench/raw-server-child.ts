/**
 * The raw baseline as its own process: `node --import tsx bench/raw-server-child.ts PAGE_FILE VARIANTS`.
 * Serves every URL spelling of the pages in PAGE_FILE (see page-set.ts) from memory, prints
 * `listening on http://127.0.0.1:PORT`, and exits on SIGTERM or when its stdin closes (the bench died).
 */
import { createPageSet } from './page-set.js'
import { readPageFile } from './page-file.js'
import { startRawServer } from './raw-server.js'

const [file, variantsText] = process.argv.slice(2)
if (!file || !variantsText) {
  console.error('usage: raw-server-child.ts PAGE_FILE VARIANTS')
  process.exit(2)
}
const set = createPageSet(await readPageFile(file), Number(variantsText))
const server = await startRawServer(set.bytes)
const stop = () => void server.close().finally(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
process.stdin.on('end', stop)
process.stdin.on('error', stop)
process.stdin.resume()
console.log(`listening on ${server.url}`)
