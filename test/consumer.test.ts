/*
 * A consumer's project: `npm pack` of this repository (its dist/, which `npm test` built), a fresh
 * project in a temp folder that `npm install`s the tarball with msw and tsx (from the npm cache when
 * it has them; this repository's vitest linked in), then, there and as written: every code block of README.md and docs/*.md
 * marked `<!-- runnable -->` (test/support/doc-blocks.ts: TypeScript through the project's tsx, in two
 * processes (test/support/module-runner.mjs); blocks that import vitest through the project's vitest, one process;
 * shell through bash, the CLI through `npx market-candles`), each against the
 * `npx market-candles serve ...` its comment names (started here on a free port; the block's
 * 127.0.0.1:PORT is that port; a curl's answer must be what its comment says), and examples/python
 * with its default command. Every other block is
 * a fragment that names its runnable block, or text. Packed once, installed once.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runBounded, startServe, type ServeProcess } from './support/child-process.js'
import { docBlocks, markingProblem, serviceOf, type DocBlock } from './support/doc-blocks.js'
import { answerMismatches, CURLRC, documentedAnswers } from './support/documented-answers.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PYTHON = '/usr/bin/python3'
const hasPytest = existsSync(PYTHON) && spawnSync(PYTHON, ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const versionOf = (name: string) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string

const BLOCKS = docBlocks(ROOT)
const RUNNABLE = BLOCKS.filter((b) => b.kind === 'runnable')
const COUNTS = { runnable: RUNNABLE.length, fragment: BLOCKS.filter((b) => b.kind === 'fragment').length, text: BLOCKS.filter((b) => b.kind === 'text').length }
const slug = (block: DocBlock) => block.name.replace(/\W+/g, '-').replace(/-$/, '')
const isTs = (block: DocBlock) => block.lang === 'ts' || block.lang === 'typescript'
const usesVitest = (block: DocBlock) => isTs(block) && /from 'vitest'/.test(block.code)
/** Each block's own time limit; a group of blocks in one process gets the sum, capped. */
const BLOCK_MS = 90_000

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
/**
 * The servers the runnable blocks name, by block name. A TypeScript block on a fixed clock (no
 * --clock-rate) gets a session of its own (`/_sessions/NAME`: its own usage, rate window and
 * journal) on a server it shares with the blocks that name the same flags; any other block gets a
 * server of its own (a shell block may call `/_sessions/...` or `/_mock/health` itself).
 */
const servers = new Map<string, { process: ServeProcess; base: string }>()
/** TypeScript blocks that share a server and the number of processes they run in: one per Markdown file cost a Node and tsx start each. */
const TS_PROCESSES = 2

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'market-candles-consumer-'))
  project = join(work, 'app')
  mkdirSync(project)
  // The real `npm pack`: prepack strips the scripts from the packed package.json (dist/ is built).
  const started = Date.now()
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'consumer-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`)
  const pack = await runBounded('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    env: { ...process.env, MARKET_CANDLES_PACK_PREBUILT: '1' },
    timeoutMs: 60_000,
  })
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stdout}${pack.stderr}`)
  // npm may print the lifecycle scripts' banners before the JSON.
  tarball = join(work, (JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m))) as { filename: string }[])[0]!.filename)
  // One install of the tarball with msw and tsx at this repository's versions (the npm cache has them
  // after `npm ci`), as a project adds them together: one npm start and one tree resolution instead of
  // two (8.4 -> 6.3 s of CPU, 2026-11-29). A warning about the package still names it (the first test).
  install = await runBounded('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `msw@${versionOf('msw')}`, `tsx@${versionOf('tsx')}`], { cwd: project, env: consumerEnv(), timeoutMs: 120_000 })
  if (install.code !== 0) throw new Error(`npm install failed: ${install.stdout}${install.stderr}`)
  // vitest for the blocks that import it: this repository's, linked (installing it cost about 5 s of CPU; the package under test is the tarball's).
  symlinkSync(join(ROOT, 'node_modules/vitest'), join(project, 'node_modules/vitest'), 'dir')
  symlinkSync(join(ROOT, 'node_modules/vitest/vitest.mjs'), join(project, 'node_modules/.bin/vitest'))
  console.log(`packed and installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  // The service each block names, as its comment writes it, on a free port (the installed bin, without npx's start).
  const serving = new Map<string, Promise<ServeProcess>>()
  const serve = (args: string[]) => startServe(join(project, 'node_modules/.bin/market-candles'), ['serve', '--port', '0', ...args], { cwd: project, env: consumerEnv() })
  await Promise.all(RUNNABLE.map(async (block) => {
    const service = serviceOf(block)
    if (service === undefined) return
    const shared = isTs(block) && !service.serveArgs.includes('--clock-rate')
    const key = service.serveArgs.join(' ')
    if (shared && !serving.has(key)) serving.set(key, serve(service.serveArgs))
    const process = await (shared ? serving.get(key)! : serve(service.serveArgs))
    servers.set(block.name, { process, base: shared ? `${process.url}/_sessions/${slug(block)}` : process.url })
  }))
}, 180_000)

afterAll(async () => {
  await Promise.all([...new Set([...servers.values()].map((s) => s.process))].map((server) => server.stop()))
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

  test('every block of the documentation is runnable, a fragment naming its runnable block or example, or text', () => {
    const problems = BLOCKS.map((block) => [block.name, markingProblem(ROOT, block, BLOCKS)]).filter(([, problem]) => problem !== undefined)
    console.log(`documentation blocks: ${COUNTS.runnable} runnable, ${COUNTS.fragment} fragments, ${COUNTS.text} text (output, bodies, files)`)
    expect(problems.map(([name, problem]) => `${name}: ${problem}`)).toEqual([])
    expect(RUNNABLE.map((b) => b.name.replace(/:\d+/, ''))).toEqual(expect.arrayContaining(['README.md (sh)', 'README.md (ts)', 'docs/sdk.md (ts)', 'docs/following.md (ts)']))
  })

  test.concurrent.for(RUNNABLE)('$name runs as written', { timeout: 200_000 }, async (block, { expect }) => {
    const run = await outcomeOf(block)
    expect(run.ok, `${run.output}`).toBe(true)
    expect(run.left ?? [], `left running after it: ${run.output}`).toEqual([])
    expect(run.printed.length + readdirSync(dirOf(block)).length - 1, 'it printed or wrote something').toBeGreaterThan(0)
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
    // conftest.py checks its process group is gone; and no other `serve` runs from the project than those of this file (their groups).
    const left = spawnSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' }).stdout.split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, pgid, ...args]) => ![...servers.values()].some((server) => server.process.pid === Number(pgid)) && args.join(' ').includes(project) && args.includes('serve'))
    expect(left).toEqual([])
  })
})

interface Outcome {
  ok: boolean
  /** What it printed (stdout). */
  printed: string
  /** Everything, for the failure's message. */
  output: string
  /** Servers or timers it left running (TypeScript blocks run in a shared process). */
  left?: string[]
}

/** The block's folder inside the project (files it writes never meet another's), its code written there. */
function dirOf(block: DocBlock): string {
  return join(project, 'blocks', slug(block))
}

/** The block as it runs: its service's 127.0.0.1:PORT is the port of the server started for it. */
function prepared(block: DocBlock): { file: string; env: Record<string, string> } {
  const service = serviceOf(block)
  // http://127.0.0.1:PORT as the block writes it: the server's URL, or its session's.
  const port = (text: string) => (service === undefined ? text : text.replace(new RegExp(`http://127\\.0\\.0\\.1:${service.port}(?![\\d])`, 'g'), servers.get(block.name)!.base))
  const dir = dirOf(block)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, usesVitest(block) ? 'block.test.ts' : isTs(block) ? 'block.ts' : 'block.sh')
  writeFileSync(file, port(block.code))
  return { file, env: Object.fromEntries(Object.entries(service?.env ?? {}).map(([k, v]) => [k, port(v)])) }
}

let outcomes: Map<string, Promise<Outcome>> | undefined

/**
 * Every runnable block's outcome, all started at the first call (vitest runs 5 concurrent tests at a
 * time; the blocks wait on clocks and rate limits, not on the CPU): shell blocks a process each,
 * TypeScript blocks in TS_PROCESSES processes, blocks that import vitest one vitest run.
 */
function outcomeOf(block: DocBlock): Promise<Outcome> {
  if (outcomes === undefined) {
    outcomes = new Map()
    const groups = new Map<string, DocBlock[]>()
    let ts = 0
    // curl answers end with their status (a curl config, the block unchanged), to hold them to what
    // the block's comments say. The config is written once, before any block starts: rewritten before
    // each block's spawn (open with O_TRUNC, then write), it was empty for an instant while a block
    // started earlier ran its first curl, whose answer then came without its status.
    const withCurls = new Set(RUNNABLE.filter((b) => !isTs(b) && documentedAnswers(b.code).length > 0))
    if (withCurls.size > 0) writeFileSync(join(work, '.curlrc'), CURLRC)
    for (const b of RUNNABLE) {
      if (isTs(b)) {
        const key = usesVitest(b) ? 'vitest' : `tsx-${ts++ % TS_PROCESSES}`
        groups.set(key, [...(groups.get(key) ?? []), b])
        continue
      }
      const { file, env } = prepared(b)
      const curls = withCurls.has(b)
      // Its own time: its test's duration starts only when vitest gives the test a slot, maybe after the block ended.
      const started = Date.now()
      outcomes.set(b.name, runBounded('bash', ['-euo', 'pipefail', file], { cwd: dirOf(b), env: consumerEnv({ ...env, ...(curls ? { CURL_HOME: work } : {}) }), timeoutMs: BLOCK_MS }).then((run) => {
        const mismatches = curls && run.code === 0 ? answerMismatches(b.code, run.stdout) : []
        return {
          ok: !run.timedOut && run.code === 0 && mismatches.length === 0,
          printed: run.stdout,
          output: `exit ${run.code}${run.timedOut ? ' (timed out)' : ''} after ${Date.now() - started} ms\n${mismatches.length > 0 ? `answers other than the block's comments say:\n${mismatches.join('\n')}\n` : ''}${run.stdout.slice(-4000)}\n${run.stderr}`,
        }
      }))
    }
    // Copied once, before any runner starts: two runners copying it at the same moment left it
    // missing for an instant ("Cannot find module .../module-runner.mjs").
    if ([...groups.keys()].some((key) => key !== 'vitest')) cpSync(join(ROOT, 'test/support/module-runner.mjs'), join(project, 'module-runner.mjs'))
    for (const [key, blocks] of groups) {
      const ran = key === 'vitest' ? runVitestBlocks(blocks) : runTsBlocks(key, blocks)
      for (const b of blocks) outcomes.set(b.name, ran.then((all) => all.get(b.name)!))
    }
  }
  return outcomes.get(block.name)!
}

async function runTsBlocks(id: string, blocks: DocBlock[]): Promise<Map<string, Outcome>> {
  const list = blocks.map((block) => ({ name: block.name, dir: dirOf(block), timeoutMs: BLOCK_MS, ...prepared(block) }))
  const listFile = join(work, `${id}.blocks.json`)
  const resultsFile = join(work, `${id}.results.json`)
  writeFileSync(listFile, JSON.stringify(list))
  const run = await runBounded(process.execPath, ['--import', 'tsx', join(project, 'module-runner.mjs'), listFile, resultsFile], {
    cwd: project,
    env: consumerEnv(),
    timeoutMs: Math.min(180_000, BLOCK_MS * blocks.length),
  })
  const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as { name: string; ok: boolean; printed: string; stderr: string; error?: string; left?: string[] }[]) : []
  const outcomes = new Map<string, Outcome>()
  for (const block of blocks) {
    const result = results.find((r) => r.name === block.name)
    outcomes.set(block.name, result
      ? { ok: result.ok, printed: result.printed, left: result.left, output: `${result.printed}\n${result.error ?? ''}\n${result.stderr}\n${run.stderr}` }
      : { ok: false, printed: '', output: `the runner ended before it (exit ${run.code}${run.timedOut ? ', timed out' : ''}):\n${run.stdout}\n${run.stderr}` })
  }
  return outcomes
}

async function runVitestBlocks(blocks: DocBlock[]): Promise<Map<string, Outcome>> {
  const files = new Map(blocks.map((block) => [prepared(block).file, block]))
  const report = join(work, 'vitest-blocks.json')
  const run = await runBounded(join(project, 'node_modules/.bin/vitest'), ['run', '--reporter=json', `--outputFile=${report}`, ...[...files.keys()].map((f) => f.slice(project.length + 1))], {
    cwd: project,
    env: consumerEnv(),
    timeoutMs: Math.min(180_000, BLOCK_MS * blocks.length),
  })
  const results = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as { testResults: { name: string; status: string; message: string; assertionResults: { fullName: string; status: string }[] }[] }).testResults : []
  const outcomes = new Map<string, Outcome>()
  for (const [file, block] of files) {
    const result = results.find((r) => r.name === file)
    const passed = result?.assertionResults.filter((a) => a.status === 'passed').map((a) => a.fullName) ?? []
    outcomes.set(block.name, {
      ok: result !== undefined && result.status === 'passed' && passed.length > 0,
      printed: passed.join('\n'),
      output: `${result ? JSON.stringify(result, null, 1) : 'no result'}\n${run.stdout.slice(-2000)}\n${run.stderr}`,
    })
  }
  return outcomes
}
