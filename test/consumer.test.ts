/*
 * A consumer's project: `npm pack` of this repository (its dist/, which `npm test` built), a fresh
 * project in a temp folder that `npm install`s the tarball with msw and tsx (from the npm cache when
 * it has them), then, there and as written: every code block of README.md and docs/*.md marked
 * `<!-- runnable -->` (TypeScript through the project's own tsx, shell through bash, the CLI through
 * `npx market-candles`) against a `npx market-candles serve` this file starts, and examples/python
 * with its default command. Packed once, installed once, for every check of the file.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runBounded, startServe, type ServeProcess } from './support/child-process.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PYTHON = '/usr/bin/python3'
const hasPytest = existsSync(PYTHON) && spawnSync(PYTHON, ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const versionOf = (name: string) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string

interface Block {
  name: string
  lang: 'ts' | 'sh'
  code: string
}

/** The blocks marked `<!-- runnable -->` (the line before the fence) in README.md and docs/*.md. */
function runnableBlocks(): Block[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
  const blocks: Block[] = []
  for (const file of files) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
    lines.forEach((line, i) => {
      if (line.trim() !== '<!-- runnable -->') return
      const fence = /^```(\w+)/.exec(lines[i + 1] ?? '')
      if (!fence) throw new Error(`${file}:${i + 1}: <!-- runnable --> is not followed by a fenced block`)
      const lang = fence[1] === 'ts' || fence[1] === 'typescript' ? 'ts' : fence[1] === 'sh' || fence[1] === 'bash' ? 'sh' : undefined
      if (!lang) throw new Error(`${file}:${i + 2}: a runnable block is ts or sh, not ${fence[1]}`)
      const end = lines.indexOf('```', i + 2)
      blocks.push({ name: `${file}:${i + 2} (${lang})`, lang, code: lines.slice(i + 2, end).join('\n') })
    })
  }
  return blocks
}
const BLOCKS = runnableBlocks()

/**
 * The environment of a consumer's shell: this repository's bins off PATH (the Node running this
 * file first, a Node the package supports), none of npm's or vitest's variables (so the project's
 * npm settings, like loglevel=error, do not leak in), no MARKET_CANDLES_* of the developer.
 */
function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|MARKET_CANDLES_)/i.test(key) || key === 'NODE_OPTIONS' || key === 'INIT_CWD') continue
    env[key] = value
  }
  const path = (process.env.PATH ?? '').split(delimiter).filter((p) => p && !p.startsWith(ROOT))
  env.PATH = [dirname(process.execPath), ...path].join(delimiter)
  env.NO_COLOR = '1'
  return { ...env, ...extra }
}

let work: string
let project: string
let tarball: string
let install: { code: number | null; stdout: string; stderr: string }
let serve: ServeProcess | undefined

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'market-candles-consumer-'))
  project = join(work, 'app')
  mkdirSync(project)
  // The real `npm pack`: prepack strips the scripts from the packed package.json (dist/ is built).
  const started = Date.now()
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'consumer-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`)
  // While the package is packed, the project installs msw and tsx at this repository's versions
  // (the npm cache has them after `npm ci`); then the tarball, on its own, so its warnings are its.
  const tools = runBounded('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `msw@${versionOf('msw')}`, `tsx@${versionOf('tsx')}`], {
    cwd: project,
    env: consumerEnv(),
    timeoutMs: 120_000,
  })
  const pack = await runBounded('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    env: { ...process.env, MARKET_CANDLES_PACK_PREBUILT: '1' },
    timeoutMs: 60_000,
  })
  const toolsInstalled = await tools
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stdout}${pack.stderr}`)
  if (toolsInstalled.code !== 0) throw new Error(`npm install msw tsx failed: ${toolsInstalled.stdout}${toolsInstalled.stderr}`)
  // npm may print the lifecycle scripts' banners before the JSON.
  tarball = join(work, (JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m))) as { filename: string }[])[0]!.filename)
  install = await runBounded('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, env: consumerEnv(), timeoutMs: 120_000 })
  if (install.code !== 0) throw new Error(`npm install failed: ${install.stdout}${install.stderr}`)
  console.log(`packed and installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  serve = await startServe('npx', ['market-candles', 'serve', '--port', '0', '--now', '2026-06-01T00:00:00Z'], { cwd: project, env: consumerEnv() })
}, 180_000)

afterAll(async () => {
  await serve?.stop()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('a project that installs the packed package', () => {
  test('npm install of the tarball prints no warning about the package’s own scripts; the installed package.json has none', () => {
    const warnings = `${install.stdout}\n${install.stderr}`.split('\n').filter((line) => /warn/i.test(line))
    expect(warnings.filter((line) => /market-candles/.test(line)), warnings.join('\n')).toEqual([])
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/market-candles/package.json'), 'utf8'))
    expect(installed.scripts).toBeUndefined()
    expect(installed.version).toBe(rootPkg.version)
    // ...while the repository keeps them: npm install there still builds dist/ (prepare).
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.prepare).toBe('node scripts/build.mjs')
  })

  test('the documentation marks runnable blocks', () => {
    expect(BLOCKS.map((b) => b.name.replace(/:\d+/, ''))).toEqual(expect.arrayContaining(['README.md (sh)', 'docs/sdk.md (ts)', 'docs/following.md (ts)']))
  })

  // At once: most of their time is npx and tsx starting, and pages at the rate limit.
  test.concurrent.for(BLOCKS)('$name runs as written', { timeout: 60_000 }, async (block, { expect }) => {
    // Each block in a folder of its own inside the project (files it writes never meet).
    const dir = join(project, 'blocks', block.name.replace(/\W+/g, '-'))
    mkdirSync(dir, { recursive: true })
    const file = join(dir, block.lang === 'ts' ? 'block.ts' : 'block.sh')
    writeFileSync(file, block.code)
    const env = consumerEnv({ MARKET_CANDLES_BASE_URL: `${serve!.url}/_sessions/${block.name.replace(/\W+/g, '-')}`, MARKET_CANDLES_API_KEY: 'demo-pro-key' })
    const run = block.lang === 'ts'
      ? await runBounded('npx', ['tsx', file], { cwd: dir, env, timeoutMs: 45_000 })
      : await runBounded('bash', ['-euo', 'pipefail', file], { cwd: dir, env, timeoutMs: 45_000 })
    expect(run.timedOut, `${run.stdout}\n${run.stderr}`).toBe(false)
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout.length + readdirSync(dir).length - 1, 'it printed or wrote something').toBeGreaterThan(0)
  })

  test.skipIf(!hasPytest)(`examples/python passes with its default command (npx market-candles serve) and leaves no process behind${hasPytest ? '' : ' (SKIPPED: no pytest for /usr/bin/python3)'}`, { concurrent: true, timeout: 70_000 }, async ({ expect }) => {
    cpSync(join(ROOT, 'examples/python'), join(project, 'examples/python'), { recursive: true })
    const run = await runBounded(PYTHON, ['-m', 'pytest', 'examples/python', '-q', '-p', 'no:cacheprovider'], {
      cwd: project,
      env: consumerEnv({ PYTHONDONTWRITEBYTECODE: '1' }),
      timeoutMs: 60_000,
    })
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
    // Every test of the example ran and passed: as many as its files define.
    const defined = readdirSync(join(ROOT, 'examples/python')).filter((f) => /^test_.*\.py$/.test(f))
      .reduce((sum, f) => sum + (readFileSync(join(ROOT, 'examples/python', f), 'utf8').match(/^def test_/gm) ?? []).length, 0)
    expect(run.stdout).toMatch(new RegExp(`\\b${defined} passed`))
    expect(run.stdout).not.toMatch(/error/i)
    // conftest.py checks its process group is gone; and no other `serve` runs from the project than the one of this file (its group).
    const left = spawnSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' }).stdout.split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, pgid, ...args]) => Number(pgid) !== serve!.pid && args.join(' ').includes(project) && args.includes('serve'))
    expect(left).toEqual([])
  })
})
