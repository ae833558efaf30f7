import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const out = mkdtempSync(join(tmpdir(), 'market-candles-api-docs-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))
const TYPEDOC_TIMEOUT_MS = 180_000

describe('the API reference (npm run docs)', () => {
  test('builds with no warning, one module per exported import path, the guides as pages', () => {
    // typedoc.json has treatWarningsAsErrors: a warning fails the build. typedoc takes ~16 s idle
    // and over 60 s at load ~20 (it is CPU-bound): the limits leave room for that, not for a hang.
    // --skipErrorChecking: type errors are test/typecheck.test.ts's to find; typedoc's own check of
    // the whole program was half of its CPU (29 s -> 15 s, 2026-11-27). Its warnings stay errors.
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--out', out, '--skipErrorChecking'], { cwd: ROOT, encoding: 'utf8', timeout: TYPEDOC_TIMEOUT_MS })
    expect(run.error, 'typedoc did not finish in time').toBeUndefined()
    const output = `${run.stdout}\n${run.stderr}`
    expect(run.status, output).toBe(0)
    expect(output).not.toMatch(/\[warning\]|\[error\]/)

    // JSON exports (package.json, openapi.json) are data, not modules
    const exported = Object.keys(pkg.exports).filter((k) => !k.endsWith('.json')).map((k) => k.replace(/^\./, pkg.name))
    const modules = readdirSync(join(out, 'modules')).map((f) => f.replace(/\.html$/, ''))
    expect(modules.sort()).toEqual(exported.map((name) => name.replaceAll('/', '_')).sort())

    const guides = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))
    expect(readdirSync(join(out, 'documents')).sort()).toEqual(guides.map((f) => f.replace(/\.md$/, '.html')).sort())
  }, TYPEDOC_TIMEOUT_MS + 10_000)
})
