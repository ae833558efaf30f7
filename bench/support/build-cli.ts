/**
 * The bench serves the real CLI bundle, so it builds `dist/cli.js` first, every run (about 10-15 s,
 * printed): simpler and safer than an mtime check, which a checkout or copy of dist/ can fool into
 * measuring a stale bundle.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export const CLI = 'dist/cli.js'
const BUILD_TIMEOUT_MS = 90_000

/** Runs `npx tsup --silent`; throws when it fails. Says how long it took. */
export function buildCli(): string {
  const t0 = performance.now()
  const result = spawnSync('npx', ['tsup', '--silent'], { stdio: ['ignore', 'inherit', 'inherit'], timeout: BUILD_TIMEOUT_MS })
  if (result.error) throw new Error(`npx tsup: ${result.error.message}`)
  if (result.status !== 0 || !existsSync(CLI)) throw new Error(`npx tsup exited with ${result.signal ?? result.status}; cannot run ${CLI}`)
  return `built ${CLI} from the working tree (npx tsup) in ${((performance.now() - t0) / 1000).toFixed(1)} s`
}
