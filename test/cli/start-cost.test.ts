import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

/*
 * What a command loads at its start. Scripts and test suites start `serve` and short exports by the
 * hundred, so a module a run never uses is CPU paid at every start (the figures: `npm run bench --
 * cli-start`). A probe loaded before the CLI reports at exit whether Node's fetch (undici, about
 * 0.07 s of CPU to load) and zod (about 0.02 s) were evaluated: undici leaves its internal module in
 * process.moduleLoadList, zod its global config on globalThis.
 */
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const PROBE = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write(`\\nloaded: undici=${process.moduleLoadList.some((m) => m.includes('deps/undici'))} zod=${'__zod_globalConfig' in globalThis}\\n`))",
)}`

function startProbed(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', PROBE, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  const loaded = () => /loaded: undici=(true|false) zod=(true|false)/.exec(stderr)?.slice(1).map((v) => v === 'true') ?? []
  return { child, exited, output: () => ({ stdout, stderr }), loaded }
}

let server: RunningMockServer
let dir: string
beforeAll(async () => {
  server = await startMockServer({ port: 0, now: '2026-01-03T00:00:00Z' })
  dir = mkdtempSync(join(tmpdir(), 'start-cost-'))
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a command loads what its run needs', () => {
  test('serve never fetches, so it never loads undici (an ES import of node:http would); it checks its data with zod', async () => {
    const serve = startProbed(['serve', '--port', '0'])
    try {
      const until = Date.now() + 15_000
      while (!serve.output().stdout.includes('listening on') && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
      expect(serve.output().stdout).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+/)
    } finally {
      serve.child.kill('SIGTERM')
    }
    expect(await serve.exited).toBe(0)
    expect(serve.loaded()).toEqual([false, true])
  })

  test('startMockServer still serves on a Node without process.getBuiltinModule (22.0-22.2): node:http comes from require()', async () => {
    const script = `process.getBuiltinModule = undefined
const { startMockServer } = await import(${JSON.stringify(new URL('../../dist/mocks/server.js', import.meta.url).href)})
const server = await startMockServer({ port: 0 })
const res = await fetch(server.url + '/v1/exchanges')
console.log('status', res.status)
await server.close()`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d))
    const [code] = (await once(child, 'exit')) as [number | null]
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'status 200' })
  })

  test('a short export to CSV fetches (undici) and loads no zod: the SDK checks answers without it', async () => {
    const out = join(dir, 'one-page.csv')
    const run = startProbed(['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2026-01-01', '--end', '2026-01-02', '--out', out, '--quiet'], {
      MARKET_CANDLES_API_KEY: 'demo-enterprise-key',
      MARKET_CANDLES_BASE_URL: server.url,
    })
    expect(await run.exited, run.output().stderr).toBe(0)
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(1 + 25)
    expect(run.loaded()).toEqual([true, false])
  })
})
