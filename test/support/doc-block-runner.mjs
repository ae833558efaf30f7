/*
 * Runs documentation blocks (TypeScript modules) one after the other in this process, which tsx
 * loads (`node --import tsx doc-block-runner.mjs LIST RESULTS`): one process for many blocks, where
 * a process each cost a Node start and a tsx start per block. Each block runs in its folder with its
 * environment, bounded in time; what it prints is kept; its outcome goes to RESULTS as JSON.
 * A block that starts something and leaves it running shows up in the handles left after it.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const [listFile, resultsFile] = process.argv.slice(2)
const blocks = JSON.parse(readFileSync(listFile, 'utf8'))
const results = []
const write = process.stdout.write.bind(process.stdout)
const baseEnv = { ...process.env }
let failure
process.on('unhandledRejection', (error) => (failure ??= error))

for (const block of blocks) {
  let printed = ''
  process.stdout.write = (chunk, ...rest) => {
    printed += String(chunk)
    return typeof rest.at(-1) === 'function' ? (rest.at(-1)(), true) : true
  }
  for (const key of Object.keys(process.env)) if (!(key in baseEnv)) delete process.env[key]
  Object.assign(process.env, baseEnv, block.env)
  process.chdir(block.dir)
  failure = undefined
  const started = Date.now()
  const before = process.getActiveResourcesInfo()
  let timer
  try {
    await Promise.race([
      import(pathToFileURL(block.file).href),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${block.timeoutMs} ms`)), block.timeoutMs))),
    ])
    clearTimeout(timer)
    if (failure) throw failure
    // Handles closed as the block ended go in the next turns of the loop.
    await new Promise((resolve) => setTimeout(resolve, 200))
    results.push({ name: block.name, ok: true, printed, ms: Date.now() - started, left: leftRunning(before) })
  } catch (error) {
    results.push({ name: block.name, ok: false, printed, ms: Date.now() - started, error: String(error?.stack ?? error) })
  } finally {
    clearTimeout(timer)
    process.stdout.write = write
  }
}
writeFileSync(resultsFile, JSON.stringify(results))
process.exit(0)

/** Servers and timers a block started and left running (a process running it alone would not end). */
function leftRunning(before) {
  const now = process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'Timeout')
  const had = [...before]
  return now.filter((r) => {
    const i = had.indexOf(r)
    if (i < 0) return true
    had.splice(i, 1)
    return false
  })
}
