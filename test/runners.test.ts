/*
 * The mocks in the test runners people use: each project under test/runners/ (one journal
 * assertion and one fault each) run by its own runner as its users run it, all at once. The
 * projects import `market-candles` through test/runners/node_modules/market-candles, a link to this
 * repository made here (its dist/ is what `npm test` built). A runner whose binary is missing is
 * skipped, saying so.
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, test } from 'vitest'
import { runBounded, type Finished } from './support/child-process.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RUNNERS_DIR = join(ROOT, 'test/runners')
const NODE = join(ROOT, 'node_modules/node/bin/node')
const TIMEOUT_MS = 90_000

interface Runner {
  name: string
  dir: string
  binary: string
  args: string[]
  /** What its report says when every test passed. */
  passed: RegExp
}

const RUNNERS: Runner[] = [
  { name: 'vitest', dir: 'vitest', binary: NODE, args: [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.mjs'], passed: /Tests\s+2 passed/ },
  { name: 'Jest, ESM mode (--experimental-vm-modules)', dir: 'jest-esm', binary: NODE, args: ['--experimental-vm-modules', join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', '--config', 'jest.config.mjs'], passed: /Tests:\s+2 passed, 2 total/ },
  { name: 'Jest, CommonJS mode', dir: 'jest-cjs', binary: NODE, args: [join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', '--config', 'jest.config.cjs'], passed: /Tests:\s+3 passed, 3 total/ },
  { name: 'node:test', dir: 'node-test', binary: NODE, args: ['--test', 'mock.test.mjs'], passed: /pass 2\n\S* ?fail 0/ },
  { name: 'bun test', dir: 'bun', binary: join(ROOT, 'node_modules/bun/bin/bun.exe'), args: ['test', './mock.test.mjs'], passed: /2 pass\n\s*0 fail/ },
  {
    name: 'deno test',
    dir: 'deno',
    binary: join(ROOT, 'node_modules/deno/deno'),
    args: ['test', '--no-check', '--no-lock', '--no-prompt', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', 'mock.test.mjs'],
    passed: /ok \| 1 passed \(2 steps\) \| 0 failed/,
  },
]

/** Without the variables of the vitest running this file, which a nested vitest or jest would read. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', DENO_NO_UPDATE_CHECK: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key === 'TEST' || key === 'NODE_ENV') delete env[key]
  return env
}

const runs = new Map<string, Promise<Finished>>()

beforeAll(() => {
  const link = join(RUNNERS_DIR, 'node_modules/market-candles')
  if (!existsSync(link)) {
    mkdirSync(join(RUNNERS_DIR, 'node_modules'), { recursive: true })
    symlinkSync('../../..', link, 'dir')
  }
  for (const runner of RUNNERS) {
    if (!existsSync(runner.binary)) continue
    const run = runBounded(runner.binary, runner.args, { cwd: join(RUNNERS_DIR, runner.dir), env: childEnv(), timeoutMs: TIMEOUT_MS })
    run.catch(() => undefined)
    runs.set(runner.name, run)
  }
})

describe('the mocks in each test runner: a journal assertion and a fault', () => {
  test.for(RUNNERS)('$name', { timeout: TIMEOUT_MS + 10_000 }, async (runner, context) => {
    const run = runs.get(runner.name)
    if (!run) {
      console.warn(`${runner.name} SKIPPED: ${runner.binary} not found (npm ci installs it)`)
      context.skip()
      return
    }
    const { code, stdout, stderr, timedOut } = await run
    // Deno colours its report whatever NO_COLOR says.
    const output = `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, '')
    expect(timedOut, output).toBe(false)
    expect(code, output).toBe(0)
    expect(output).toMatch(runner.passed)
  })
})
