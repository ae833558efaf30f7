import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url))
const CLI = `${ROOT_DIR}dist/cli.js`
const VITEST = `${ROOT_DIR}node_modules/vitest/vitest.mjs`

/** Starts the built `market-candles serve --port 0`; resolves with its URL. */
async function serve() {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--now', '2026-06-01T00:00:00Z'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 15 s: ${out}`)), 15_000)
    child.stdout.on('data', (d) => {
      out += d
      const found = /^listening on (\S+)/m.exec(out)
      if (found) clearTimeout(timer), resolve(found[1]!)
    })
  })
  return { child, url }
}

describe('parallel suites on one server: sessions', () => {
  test('4 parallel workers (vitest threads) on one serve process, each asserting its exact usage, journal and faults, while a fifth session is flooded to 429', async () => {
    const { child, url } = await serve()
    try {
      const dir = mkdtempSync(join(tmpdir(), 'mc-sessions-'))
      const reportFile = join(dir, 'report.json')
      const run = spawn(process.execPath, [VITEST, 'run', '--config', 'test/sessions/vitest.workers.config.ts', '--reporter', 'json', '--outputFile', reportFile], {
        cwd: ROOT_DIR,
        env: { ...process.env, MC_URL: url },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      run.stdout.on('data', (d) => (stdout += d))
      run.stderr.on('data', (d) => (stderr += d))
      const [code] = await once(run, 'exit')
      let report
      try {
        report = JSON.parse(readFileSync(reportFile, 'utf8'))
      } catch {
        throw new Error(`the workers' run wrote no report (exit ${code}): ${stdout}\n${stderr}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
      const results = report.testResults.map((f: { name: string; status: string; message: string }) => [f.name.split('/').at(-1), f.status, f.message])
      expect(results, stderr).toEqual(
        expect.arrayContaining(['flood', 'worker-1', 'worker-2', 'worker-3', 'worker-4'].map((n) => [`${n}.session.ts`, 'passed', ''])),
      )
      expect(report.numPassedTests).toBe(5)
      expect(code).toBe(0)
      // The root saw none of the sessions' traffic.
      expect(await (await fetch(`${url}/_mock/usage`)).json()).toEqual({ acct_free: 0, acct_pro: 0, acct_enterprise: 0 })
      expect(await (await fetch(`${url}/_mock/requests`)).json()).toEqual([])
    } finally {
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  }, 120_000)
})
