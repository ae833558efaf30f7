import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8'))
const SUBPATHS = Object.keys(pkg.exports).filter((k) => k !== './package.json').map((k) => k.replace(/^\./, 'market-candles'))

const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })

describe('the built package (npm test builds it first)', () => {
  test.each(SUBPATHS)('import(%s) from the ESM build', (name) => {
    const keys = node(['--input-type=module', '-e', `const m = await import(${JSON.stringify(name)}); console.log(Object.keys(m).length)`])
    expect(Number(keys)).toBeGreaterThan(0)
  })

  test.each(SUBPATHS)('require(%s) from the CJS build', (name) => {
    const keys = node(['-e', `console.log(Object.keys(require(${JSON.stringify(name)})).length)`])
    expect(Number(keys)).toBeGreaterThan(0)
  })

  test('msw stays out of the SDK and schema entries (it is an optional peer dependency)', () => {
    for (const file of ['dist/index.js', 'dist/schemas.js', 'dist/index.cjs', 'dist/mocks/index.js', 'dist/mocks/server.js']) {
      expect(readFileSync(`${ROOT}/${file}`, 'utf8'), file).not.toMatch(/from ["']msw|require\(["']msw/)
    }
    expect(pkg.peerDependenciesMeta.msw.optional).toBe(true)
  })

  test('the reference service from the built mocks entry answers like the source', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `const { createMockService } = await import('market-candles/mocks'); const s = createMockService({ now: '2025-01-01' }); const r = await s.handle({ method: 'GET', url: '/v1/exchanges' }); console.log(r.status, r.body.length)`,
    ])
    expect(out.trim()).toBe('200 2')
  })
})
