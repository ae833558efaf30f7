// Builds dist/ with tsup and records what it was built from, so that `npm test` can skip a build that
// `prepare` (npm install, npm ci) has just made from the same sources: CI runs `npm ci` then `npm test`,
// and the second tsup run (about 40 s of CPU) built the same files again.
//
//   node scripts/build.mjs              build, then write the record (prepare)
//   node scripts/build.mjs --if-stale   build only when dist/ is not the build of the current inputs (pretest)
//
// The record (node_modules/.cache/market-candles/build.json, outside the packed dist/) holds a hash of
// every input (src/, mocks/, cli/, the build's config, package.json, the lockfile and the installed
// tree's node_modules/.package-lock.json) and the size and mtime of every file the build wrote. The build
// is skipped only when both match exactly: a changed, added or removed source, a new dependency, or
// a dist/ file touched, deleted or added since (npm run build, a tsup --watch) all rebuild.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RECORD = join(ROOT, 'node_modules/.cache/market-candles/build.json')
const INPUT_DIRS = ['src', 'mocks', 'cli']
const INPUT_FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsup.config.ts', 'tsconfig.json']

/** Every file under `dir`, as paths relative to ROOT with forward slashes, sorted. */
function filesUnder(dir) {
  const abs = join(ROOT, dir)
  if (!existsSync(abs)) return []
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath ?? entry.path, entry.name)).split('\\').join('/'))
    .sort()
}

function inputsHash() {
  const hash = createHash('sha256')
  for (const file of [...INPUT_DIRS.flatMap(filesUnder), ...INPUT_FILES]) {
    const abs = join(ROOT, file)
    hash.update(`${file}\0`)
    hash.update(existsSync(abs) ? readFileSync(abs) : '(absent)')
    hash.update('\0')
  }
  return hash.digest('hex')
}

/** The build's outputs: path → [size, mtimeMs]. */
function outputs() {
  return Object.fromEntries(
    filesUnder('dist').map((file) => {
      const s = statSync(join(ROOT, file))
      return [file, [s.size, s.mtimeMs]]
    }),
  )
}

function readRecord() {
  try {
    return JSON.parse(readFileSync(RECORD, 'utf8'))
  } catch {
    return undefined
  }
}

function isFresh(inputs) {
  const record = readRecord()
  if (record === undefined || record.inputs !== inputs) return false
  const now = outputs()
  const names = Object.keys(now)
  if (names.length === 0 || names.length !== Object.keys(record.outputs ?? {}).length) return false
  return names.every((name) => {
    const before = record.outputs[name]
    return Array.isArray(before) && before[0] === now[name][0] && before[1] === now[name][1]
  })
}

const ifStale = process.argv.includes('--if-stale')
const inputs = inputsHash()
if (ifStale && isFresh(inputs)) {
  console.log('dist/ is the build of the current sources (recorded by the last build): tsup skipped')
  process.exit(0)
}
rmSync(RECORD, { force: true })
const tsup = spawnSync('tsup', ['--silent'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' })
if (tsup.status !== 0) process.exit(tsup.status ?? 1)
// Sources edited during the build make the record stale: hash them again and record only if unchanged.
if (inputsHash() === inputs) {
  mkdirSync(dirname(RECORD), { recursive: true })
  writeFileSync(RECORD, JSON.stringify({ inputs, outputs: outputs() }))
}
