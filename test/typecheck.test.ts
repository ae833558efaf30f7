import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * `npm run typecheck` as part of the suite. It ran in `pretest` before any test, alone on one core
 * for about 20 s (cold: a CI clone has no incremental cache); here it runs beside the other files.
 */
describe('the typecheck (tsc --noEmit over src, cli, mocks, test, examples, bench, scripts)', () => {
  test('reports no error', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d))
    const [code] = (await once(child, 'close')) as [number | null]
    expect(output, output).toBe('')
    expect(code, output).toBe(0)
  }, 300_000)
})
