import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * `npm run typecheck` as part of the suite, with TypeScript 7's native compiler (the
 * `typescript-native` devDependency, `npm:typescript@~7.0`): the same checker, about 7 s of CPU
 * over the whole project where TypeScript 6's took about 30 s (2026-11-27). TypeScript 6 stays for
 * the tools that need its compiler API (tsup's .d.ts build, typedoc).
 */
describe('the typecheck (tsc --noEmit over src, cli, mocks, test, examples, bench, scripts)', () => {
  test('reports no error', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/typescript-native/bin/tsc'), '--noEmit', '--singleThreaded', '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d))
    const [code] = (await once(child, 'close')) as [number | null]
    expect(output, output).toBe('')
    expect(code, output).toBe(0)
  }, 300_000)
})
