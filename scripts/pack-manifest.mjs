// The published package.json carries no scripts: `prepare` (scripts/build.mjs, which builds dist/ on `npm install`
// in the repository) would make npm warn a consumer about install scripts, and the others (test,
// bench, ...) are for the repository only. `prepack` runs `strip` (builds dist/, then writes
// package.json without `scripts`, the original kept aside), `postpack` runs `restore`. `npm pack` and
// `npm publish` both run the pair. MARKET_CANDLES_PACK_PREBUILT=1 skips the build (the consumer test
// packs right after `npm test` built dist/).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

const PKG = new URL('../package.json', import.meta.url)
const KEPT = new URL('../node_modules/.cache/market-candles-pack/package.json', import.meta.url)

const command = process.argv[2]
if (command === 'strip') {
  // The same build as `prepare`, skipped when dist/ is already the build of the current sources.
  if (process.env.MARKET_CANDLES_PACK_PREBUILT !== '1') execFileSync(process.execPath, [new URL('./build.mjs', import.meta.url).pathname, '--if-stale'], { stdio: 'inherit' })
  if (existsSync(KEPT)) {
    // A pack that died before postpack left the original aside: restore it first.
    renameSync(KEPT, PKG)
  }
  mkdirSync(new URL('.', KEPT), { recursive: true })
  const text = readFileSync(PKG, 'utf8')
  writeFileSync(KEPT, text)
  const pkg = JSON.parse(text)
  delete pkg.scripts
  // Written aside and renamed over it: a process reading package.json meanwhile never sees half of it.
  const next = new URL('package.json.next', KEPT)
  writeFileSync(next, `${JSON.stringify(pkg, null, 2)}\n`)
  renameSync(next, PKG)
} else if (command === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, PKG)
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore')
  process.exit(2)
}
