/*
 * The runtime matrix: the SDK's own checks (test/runtimes/sdk-checks.mjs: catalog, walks both ways
 * with their cursors, typed errors, timeout and abort, a follow against a running clock, resample),
 * from the built package, against one `market-candles serve` over HTTP on 127.0.0.1, under Node 22
 * and 24, Bun, Deno, workerd, Chromium and Firefox ESR, all at once. Each runtime has a session of
 * its own on the server (its clock, its faults, its rate limit). A runtime whose binary is missing is
 * skipped, saying so. The versions tested are listed in docs/sdk.md#runtimes.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { killGroup, runBounded, startServe, type ServeProcess } from './support/child-process.js'
import { freePort } from './support/free-port.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CHECKS_DIR = join(ROOT, 'test/runtimes')
const RUN_TIMEOUT_MS = 60_000
const CHECK_NAMES = ['catalog', 'forwardWalkAndCursor', 'backwardWalkAndCursor', 'typedErrors', 'timeoutAndAbort', 'followRunningClock', 'resampleHours']

interface Outcome {
  runtime: string
  version: string
  results: Record<string, { ok: boolean; detail: string; ms: number }>
}
interface Config {
  baseUrl: string
  clock: { now: number; wall: number; rate: number }
}

const bin = (path: string) => join(ROOT, 'node_modules', path)
async function workerdBinary(): Promise<string> {
  try {
    const name = 'workerd' // its package has no types: it exports the binary's path
    return ((await import(name)) as { default: string }).default
  } catch {
    return ''
  }
}

/** The runtimes: where each one's binary is, and how it runs the checks with a config. */
const RUNTIMES: { name: string; binary: () => Promise<string> | string; hint: string; run: (binary: string, config: Config) => Promise<Outcome> }[] = [
  { name: 'Node 24', binary: () => bin('node/bin/node'), hint: 'the `node` devDependency', run: (b, c) => runCli(b, [], c) },
  { name: 'Node 22', binary: () => bin('node22/bin/node'), hint: 'the `node22` devDependency (npm:node@^22)', run: (b, c) => runCli(b, [], c) },
  { name: 'Bun', binary: () => bin('bun/bin/bun.exe'), hint: 'the `bun` devDependency', run: (b, c) => runCli(b, [], c) },
  {
    name: 'Deno',
    binary: () => bin('deno/deno'),
    hint: 'the `deno` devDependency',
    run: (b, c) => runCli(b, ['run', '--quiet', '--no-prompt', '--no-lock', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--allow-sys'], c),
  },
  { name: 'workerd', binary: workerdBinary, hint: 'the `workerd` devDependency', run: runWorkerd },
  { name: 'Chromium', binary: () => '/usr/bin/chromium', hint: "Debian's chromium (.ci/run installs it)", run: runChromium },
  { name: 'Firefox ESR', binary: () => '/usr/bin/firefox-esr', hint: "Debian's firefox-esr (.ci/run installs it)", run: runFirefox },
]

async function runCli(binary: string, args: string[], config: Config): Promise<Outcome> {
  const run = await runBounded(binary, [...args, join(CHECKS_DIR, 'run-cli.mjs'), JSON.stringify(config)], {
    cwd: ROOT,
    timeoutMs: RUN_TIMEOUT_MS,
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
  })
  const line = run.stdout.trim().split('\n').at(-1) ?? ''
  if (run.code !== 0 || !line.startsWith('{')) throw new Error(`exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\n${run.stdout}\n${run.stderr}`)
  return JSON.parse(line) as Outcome
}

let work: string
const bundles = new Map<string, Promise<string>>()
/** The checks bundled by esbuild for a platform, as an app's or a worker's build would. */
function bundle(entry: 'worker.mjs' | 'page.mjs'): Promise<string> {
  if (!bundles.has(entry)) {
    bundles.set(
      entry,
      build({
        entryPoints: [join(CHECKS_DIR, entry)],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        conditions: entry === 'worker.mjs' ? ['workerd', 'worker', 'browser'] : ['browser'],
        target: 'es2022',
        write: false,
        logLevel: 'silent',
      }).then((result) => result.outputFiles[0]!.text),
    )
  }
  return bundles.get(entry)!
}

async function runWorkerd(binary: string, config: Config): Promise<Outcome> {
  const dir = await mkdtemp(join(work, 'workerd-'))
  await writeFile(join(dir, 'worker.js'), await bundle('worker.mjs'))
  const port = await freePort()
  // "private" and "local" let the worker reach 127.0.0.1 (workerd allows only "public" by default).
  await writeFile(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .checks),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const checks :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")],
  compatibilityDate = "2026-01-01",
  globalOutbound = "internet",
);
`,
  )
  const server = runBounded(binary, ['serve', join(dir, 'config.capnp'), '--verbose'], { cwd: dir, timeoutMs: RUN_TIMEOUT_MS })
  try {
    const url = `http://127.0.0.1:${port}/?config=${encodeURIComponent(JSON.stringify(config))}`
    const deadline = Date.now() + 20_000
    for (;;) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(RUN_TIMEOUT_MS - 10_000) })
        const text = await res.text()
        if (!res.ok) throw new Error(`workerd answered ${res.status}: ${text}`)
        return JSON.parse(text) as Outcome
      } catch (error) {
        // Until workerd serves, a connection is refused, or (its socket bound before the worker is
        // loaded) closed at once: both are retried until the deadline (a CI run met the latter).
        const code = (error as { cause?: { code?: string } }).cause?.code
        const starting = code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
        if (!starting || Date.now() > deadline) {
          const exited = await Promise.race([server, new Promise((r) => setTimeout(() => r(undefined), 100))])
          throw new Error(`${String(error)}${exited ? `\nworkerd: ${JSON.stringify(exited)}` : ''}`)
        }
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  } finally {
    killGroup(server.pid)
    await server.catch(() => undefined)
  }
}

/** A page on its own local port serving the bundled checks: another origin than serve's (CORS). */
let pageServer: Server | undefined
let pageOrigin: Promise<string> | undefined
function startPageServer(): Promise<string> {
  pageOrigin ??= bundle('page.mjs').then(
    (script) =>
      new Promise<string>((resolve) => {
        pageServer = createServer((req, res) => {
          if (req.url === '/checks.js') {
            res.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
          } else {
            res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><meta charset="utf-8"><title>checks</title><script type="module" src="/checks.js"></script>')
          }
        })
        pageServer.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(pageServer!.address() as { port: number }).port}`))
      }),
  )
  return pageOrigin
}
async function pageUrl(config: Config): Promise<string> {
  return `${await startPageServer()}/#${encodeURIComponent(JSON.stringify(config))}`
}

async function runChromium(binary: string, config: Config): Promise<Outcome> {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: binary,
    timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const page = await browser.newPage()
    await page.goto(await pageUrl(config))
    await page.waitForFunction(() => (window as { __checks?: unknown }).__checks, undefined, { timeout: RUN_TIMEOUT_MS - 15_000 })
    const outcome = (await page.evaluate(() => (window as { __checks?: unknown }).__checks)) as Outcome & { error?: string }
    if (outcome.error) throw new Error(outcome.error)
    return { ...outcome, runtime: 'chromium', version: browser.version() }
  } finally {
    await browser.close()
  }
}

async function runFirefox(binary: string, config: Config): Promise<Outcome> {
  const { default: puppeteer } = await import('puppeteer-core')
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: binary,
    headless: true,
    timeout: 30_000,
    protocolTimeout: RUN_TIMEOUT_MS,
    extraPrefsFirefox: { 'network.proxy.type': 0, 'app.update.enabled': false, 'browser.shell.checkDefaultBrowser': false },
  })
  try {
    const page = await browser.newPage()
    await page.goto(await pageUrl(config))
    await page.waitForFunction(() => (window as { __checks?: unknown }).__checks, { timeout: RUN_TIMEOUT_MS - 15_000, polling: 100 })
    const outcome = (await page.evaluate(() => (window as { __checks?: unknown }).__checks)) as Outcome & { error?: string }
    if (outcome.error) throw new Error(outcome.error)
    return { ...outcome, runtime: 'firefox', version: await browser.version() }
  } finally {
    await browser.close()
  }
}

let serve: ServeProcess
/** One session per runtime: a running clock (600x) and a hang for every ETH candle request. */
async function arrangeSession(name: string): Promise<Config> {
  const baseUrl = `${serve.url}/_sessions/${name}`
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', body: JSON.stringify(body) })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  }
  await post('/_mock/faults', { path: '/v1/exchange_ohlcv', kind: 'hang', query: { base: 'ETH' }, times: 1000 })
  const now = Date.parse('2026-06-01T00:00:00Z')
  await post('/_mock/clock', { now: new Date(now).toISOString(), rate: 600 })
  return { baseUrl, clock: { now, wall: Date.now(), rate: 600 } }
}

const outcomes = new Map<string, Promise<Outcome | { skipped: string }>>()

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'market-candles-runtimes-'))
  serve = await startServe(join(ROOT, 'node_modules/node/bin/node'), [join(ROOT, 'dist/cli.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--now', '2026-06-01T00:00:00Z'], { cwd: ROOT })
  // Every runtime at once: most of their time is waiting on the server and on timers.
  for (const runtime of RUNTIMES) {
    const session = runtime.name.toLowerCase().replace(/\W+/g, '-')
    outcomes.set(
      runtime.name,
      (async () => {
        const binary = await runtime.binary()
        if (!binary || !existsSync(binary)) return { skipped: `${binary || runtime.name} not found; install ${runtime.hint}` }
        return runtime.run(binary, await arrangeSession(session))
      })(),
    )
  }
  // Settled here, so a failure is reported by its own test, not as an unhandled rejection.
  for (const [name, outcome] of outcomes) outcome.catch(() => console.warn(`${name}: failed`))
}, 60_000)

afterAll(async () => {
  await Promise.allSettled(outcomes.values())
  await new Promise<void>((r) => (pageServer ? pageServer.close(() => r()) : r()))
  await serve?.stop()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the SDK in every runtime, against `market-candles serve` over HTTP', () => {
  test.for(RUNTIMES.map((r) => r.name))('%s: catalog, walks both ways with their cursors, typed errors, timeout and abort, follow on a running clock, resample', { timeout: RUN_TIMEOUT_MS + 30_000 }, async (name, context) => {
    const outcome = await outcomes.get(name)!
    if ('skipped' in outcome) {
      console.warn(`${name} SKIPPED: ${outcome.skipped}`)
      context.skip()
      return
    }
    console.log(`${name} (${outcome.runtime} ${outcome.version}): ${Object.entries(outcome.results).map(([check, r]) => `${check} ${r.ms} ms`).join(', ')}`)
    const failed = Object.entries(outcome.results).filter(([, r]) => !r.ok).map(([check, r]) => `${check}: ${r.detail}`)
    expect(failed, failed.join('\n\n')).toEqual([])
    expect(Object.keys(outcome.results)).toEqual(CHECK_NAMES)
  })
})
