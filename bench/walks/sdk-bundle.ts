/**
 * The SDK entry (src/index.ts) bundled on its own, from the working tree or from a git commit, so
 * one bench run can load two versions of the SDK side by side and compare them. Both are built the
 * same way (esbuild, ESM, packages left external) into the gitignored bench/.tools/sdk-bundles, where
 * node resolves zod and friends from this repository's node_modules.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = resolve(import.meta.dirname, '../..')
const OUT = join(ROOT, 'bench', '.tools', 'sdk-bundles')

export type SdkModule = typeof import('../../src/index.js')

/** Builds and imports the SDK of `ref` (a commit, branch or tag), or of the working tree when undefined. */
export async function loadSdk(ref: string | undefined): Promise<{ sdk: SdkModule; label: string }> {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
  let entry = join(ROOT, 'src', 'index.ts')
  let label = 'working tree'
  let name = 'working-tree'
  if (ref !== undefined) {
    const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]).trim()
    label = `${ref === commit ? commit.slice(0, 7) : `${ref} (${commit.slice(0, 7)})`}`
    name = commit
    // The commit's src/ alone, beside this repository's node_modules.
    const dir = join(OUT, commit)
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['-C', ROOT, 'archive', commit, 'src'], { maxBuffer: 64 * 2 ** 20 }) })
    entry = join(dir, 'src', 'index.ts')
  }
  const outfile = join(OUT, `${name}.mjs`)
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    define: { __MARKET_CANDLES_VERSION__: JSON.stringify(version) },
    logLevel: 'error',
  })
  // A query string per build: a second load in one process gets this build, not a cached one.
  return { sdk: (await import(`${pathToFileURL(outfile).href}?${Date.now()}`)) as SdkModule, label }
}

function git(args: string[]): string {
  try {
    return execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    throw new Error(`git ${args.join(' ')}: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`)
  }
}
