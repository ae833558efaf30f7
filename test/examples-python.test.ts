import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
// Debian's python3 with python3-pytest; the python3 first on PATH may be another build without it.
const PYTHON = '/usr/bin/python3'
const hasPytest = existsSync(PYTHON) && spawnSync(PYTHON, ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0
if (!hasPytest) console.warn('examples/python skipped: no pytest for /usr/bin/python3 (install it with `apt-get install -y python3-pytest`)')

describe('examples/python: a pytest suite against `market-candles serve`', () => {
  test.skipIf(!hasPytest)('passes: the journal, faults and arranged data, from Python', () => {
    const run = spawnSync(PYTHON, ['-m', 'pytest', 'examples/python', '-q', '-p', 'no:cacheprovider'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      // The built CLI on this Node: what `npx market-candles` runs in a project that installed the package
      // (test/consumer.test.ts runs the suite there with its default npx command).
      env: { ...process.env, MARKET_CANDLES_SERVE: `${process.execPath} ${ROOT}dist/cli.js serve --port 0`, PYTHONDONTWRITEBYTECODE: '1' },
    })
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toMatch(/9 passed/)
  }, 150_000)
})
