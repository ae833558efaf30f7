/**
 * What users would pick instead of the reference server, for section 2: Prism serving a static
 * example of the page (an OpenAPI mock) and json-server serving it from a JSON file. Both are
 * installed at bench time into bench/.tools (gitignored, outside the lockfile: they are no
 * dependency of the package), at pinned versions, and run on this Node (Prism needs >= 24.18).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { get } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const TOOLS_DIR = 'bench/.tools'
export const PRISM = { name: '@stoplight/prism-cli', version: '5.16.0', bin: 'prism' }
export const JSON_SERVER = { name: 'json-server', version: '0.17.4', bin: 'json-server' }
const STARTUP_MS = 60_000

const installed = (tool: { name: string; version: string }): boolean => {
  const file = join(TOOLS_DIR, 'node_modules', tool.name, 'package.json')
  return existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version === tool.version
}

/** The JS file of a tool's bin, to run with this Node. */
function binOf(tool: { name: string; bin: string }): string {
  const dir = join(TOOLS_DIR, 'node_modules', tool.name)
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> }
  return resolve(dir, typeof bin === 'string' ? bin : bin[tool.bin]!)
}

/**
 * Installs Prism and json-server into bench/.tools unless they are there; returns why not on failure.
 * The folder gets its own package.json naming both, so one install never prunes the other.
 */
export function ensureAlternatives(log: (line: string) => void): { ok: true } | { ok: false; why: string } {
  const tools = [PRISM, JSON_SERVER]
  if (tools.every(installed)) return { ok: true }
  const specs = tools.map((t) => `${t.name}@${t.version}`)
  log(`  installing ${specs.join(' and ')} into ${TOOLS_DIR} (for this bench only: not a dependency of the package) ...`)
  mkdirSync(TOOLS_DIR, { recursive: true })
  const manifest = { private: true, description: 'market-candles bench: servers to compare with (npm run bench installs them)', dependencies: Object.fromEntries(tools.map((t) => [t.name, t.version])) }
  writeFileSync(join(TOOLS_DIR, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const r = spawnSync('npm', ['install', '--prefix', TOOLS_DIR, '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], { encoding: 'utf8', timeout: 300_000 })
  if (tools.every(installed)) return { ok: true }
  const why = (r.stderr || r.stdout || String(r.error ?? '')).trim().split('\n').slice(-3).join(' / ')
  return { ok: false, why: `npm install --prefix ${TOOLS_DIR} (${specs.join(', ')}) failed: ${why || `exit ${r.status}`}` }
}

/** A free local port (the tools take a port number, not 0). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolvePort(port))
    })
  })
}

export interface ToolServer {
  readonly name: string
  readonly url: string
  readonly pid: number
  /** Where each page kind is served, and the headers that select it. */
  readonly routes: Record<PageKind, { path: string; headers: Record<string, string> }>
  stop(): Promise<void>
}

export type PageKind = 'page1000' | 'page10'

const live = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL')
})

function getStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((ok) => {
    const req = get(url, { headers }, (res) => (res.resume(), ok(res.statusCode ?? 0)))
    req.setTimeout(2000, () => req.destroy())
    req.on('error', () => ok(0))
  })
}

async function startTool(name: string, args: string[], probe: { path: string; headers: Record<string, string> }, port: number, cleanup: () => Promise<void>): Promise<ChildProcess> {
  // stdout (a log line per request for both tools, as users run them) is discarded.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  live.add(child)
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (s: string) => stderr.length < 4000 && (stderr += s))
  child.once('exit', () => live.delete(child))
  const deadline = Date.now() + STARTUP_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    if ((await getStatus(`http://127.0.0.1:${port}${probe.path}`, probe.headers)) === 200) return child
    await new Promise((r) => setTimeout(r, 250))
  }
  child.kill('SIGKILL')
  await cleanup()
  throw new Error(`${name} did not answer 200 on ${probe.path} within ${STARTUP_MS} ms${stderr ? `\n--- stderr ---\n${stderr.trimEnd()}` : ''}`)
}

function stopper(child: ChildProcess, cleanup: () => Promise<void>) {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
      await exited
      clearTimeout(timer)
    }
    await cleanup()
  }
}

/** Prism (`prism mock`) on an OpenAPI document whose one operation has both pages as named examples. */
export async function startPrism(pages: Record<PageKind, unknown>, candlePath: string): Promise<ToolServer> {
  const dir = await mkdtemp(join(tmpdir(), 'market-candles-prism-'))
  const cleanup = () => rm(dir, { recursive: true, force: true })
  const spec = {
    openapi: '3.0.3',
    info: { title: 'candle pages as static examples', version: '1' },
    paths: {
      [candlePath]: {
        get: {
          responses: {
            '200': {
              description: 'a page of candles',
              content: { 'application/json': { examples: Object.fromEntries(Object.entries(pages).map(([k, value]) => [k, { value }])) } },
            },
          },
        },
      },
    },
  }
  const file = join(dir, 'openapi.json')
  await writeFile(file, JSON.stringify(spec))
  const port = await freePort()
  const routes = {
    page1000: { path: candlePath, headers: { prefer: 'example=page1000' } },
    page10: { path: candlePath, headers: { prefer: 'example=page10' } },
  }
  const child = await startTool('Prism', [binOf(PRISM), 'mock', '-h', '127.0.0.1', '-p', String(port), file], routes.page10, port, cleanup)
  return { name: `Prism ${PRISM.version}`, url: `http://127.0.0.1:${port}`, pid: child.pid!, routes, stop: stopper(child, cleanup) }
}

/** json-server on a db file holding both pages, each under its own route. */
export async function startJsonServer(pages: Record<PageKind, unknown>): Promise<ToolServer> {
  const dir = await mkdtemp(join(tmpdir(), 'market-candles-json-server-'))
  const cleanup = () => rm(dir, { recursive: true, force: true })
  const file = join(dir, 'db.json')
  await writeFile(file, JSON.stringify(pages))
  const port = await freePort()
  // Plain paths: json-server reads query parameters as filters on the records.
  const routes = { page1000: { path: '/page1000', headers: {} }, page10: { path: '/page10', headers: {} } }
  const child = await startTool('json-server', [binOf(JSON_SERVER), '--host', '127.0.0.1', '--port', String(port), '--read-only', file], routes.page10, port, cleanup)
  return { name: `json-server ${JSON_SERVER.version}`, url: `http://127.0.0.1:${port}`, pid: child.pid!, routes, stop: stopper(child, cleanup) }
}
