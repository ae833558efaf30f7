/*
 * Runs TypeScript modules (documentation blocks, examples) one after the other in this process,
 * which tsx loads (`node --import tsx module-runner.mjs LIST RESULTS`): one process for many
 * modules, where a process each cost a Node and a tsx start per module (about 0.8 s of CPU).
 * Each module runs in its folder with its environment, bounded in time; what it prints on stdout
 * and stderr is kept; its outcome goes to RESULTS as JSON.
 *
 * What would fail the module as a process of its own fails it here too:
 * - it throws, rejects unhandled, or throws from a callback (an uncaught exception);
 * - it sets `process.exitCode` (a process would exit with it);
 * - it leaves anything running that keeps the event loop alive (a server, a socket, a timer, a
 *   child process: a process running it alone would not end), by the active resources after it;
 * - it leaves `fetch`, `http.request` or `https.request` patched (msw's interceptors not closed),
 *   which a process would hide and would reach the modules after it here.
 * A module that calls process.exit ends the runner: it and every module after it have no result.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { pathToFileURL } from 'node:url'

const [listFile, resultsFile] = process.argv.slice(2)
const modules = JSON.parse(readFileSync(listFile, 'utf8'))
const results = []
const write = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) }
const baseEnv = { ...process.env }
const globals = () => ({ fetch: globalThis.fetch, 'http.request': http.request, 'http.get': http.get, 'https.request': https.request, 'https.get': https.get })
/** Puts back what a module left patched: the modules after it see what a process of their own would. */
const restore = (saved) => {
  globalThis.fetch = saved.fetch
  Object.assign(http, { request: saved['http.request'], get: saved['http.get'] })
  Object.assign(https, { request: saved['https.request'], get: saved['https.get'] })
}
let failure
process.on('unhandledRejection', (error) => (failure ??= error))
process.on('uncaughtException', (error) => (failure ??= error))

for (const module of modules) {
  const printed = { stdout: '', stderr: '' }
  for (const stream of ['stdout', 'stderr']) {
    process[stream].write = (chunk, ...rest) => {
      printed[stream] += String(chunk)
      return typeof rest.at(-1) === 'function' ? (rest.at(-1)(), true) : true
    }
  }
  for (const key of Object.keys(process.env)) if (!(key in baseEnv)) delete process.env[key]
  Object.assign(process.env, baseEnv, module.env)
  process.chdir(module.dir)
  failure = undefined
  process.exitCode = undefined
  const started = Date.now()
  const before = process.getActiveResourcesInfo()
  const unpatched = globals()
  let timer
  try {
    await Promise.race([
      import(pathToFileURL(module.file).href),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${module.timeoutMs} ms`)), module.timeoutMs))),
    ])
    clearTimeout(timer)
    // Handles closed as the module ended go in the next turns of the loop.
    await new Promise((resolve) => setTimeout(resolve, 200))
    if (failure) throw failure
    if (process.exitCode !== undefined && process.exitCode !== 0) throw new Error(`it set process.exitCode to ${process.exitCode}`)
    const patched = Object.entries(globals()).filter(([name, value]) => value !== unpatched[name]).map(([name]) => name)
    if (patched.length > 0) {
      restore(unpatched)
      throw new Error(`it left ${patched.join(', ')} patched`)
    }
    results.push({ name: module.name, ok: true, printed: printed.stdout, stderr: printed.stderr, ms: Date.now() - started, left: leftRunning(before) })
  } catch (error) {
    results.push({ name: module.name, ok: false, printed: printed.stdout, stderr: printed.stderr, ms: Date.now() - started, error: String(error?.stack ?? error) })
  } finally {
    clearTimeout(timer)
    process.stdout.write = write.stdout
    process.stderr.write = write.stderr
    process.exitCode = undefined
  }
}
writeFileSync(resultsFile, JSON.stringify(results))
process.exit(0)

/** What keeps the event loop alive after the module that did not before it (servers, sockets, timers, processes). */
function leftRunning(before) {
  const had = [...before]
  return process.getActiveResourcesInfo().filter((r) => {
    const i = had.indexOf(r)
    if (i < 0) return true
    had.splice(i, 1)
    return false
  })
}
