import { execFileSync } from 'node:child_process'
import { buildSync } from 'esbuild'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8'))
const SUBPATHS = Object.keys(pkg.exports).filter((k) => !k.endsWith('.json')).map((k) => k.replace(/^\./, 'market-candles'))
// The worker helper is for browsers: msw/browser does not load in Node (its exports say so).
const BROWSER_ONLY = ['market-candles/mocks/browser']
const NODE_SUBPATHS = SUBPATHS.filter((name) => !BROWSER_ONLY.includes(name))

const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })

/**
 * The number of names each subpath exports (or the error loading it), from one Node process per
 * module system, every subpath loaded in turn, last first (the root entry loads last, so no entry
 * leans on what it set up): one process per subpath cost 18 process starts, about 5 s of CPU.
 */
const loadedBy = new Map<'esm' | 'cjs', Record<string, number | string>>()
function loaded(system: 'esm' | 'cjs'): Record<string, number | string> {
  let out = loadedBy.get(system)
  if (!out) {
    const load = system === 'esm' ? 'Object.keys(await import(name)).length' : 'Object.keys(require(name)).length'
    const script = `const out = {}; for (const name of ${JSON.stringify([...NODE_SUBPATHS].reverse())}) { try { out[name] = ${load} } catch (error) { out[name] = String(error) } } console.log(JSON.stringify(out))`
    out = JSON.parse(node(system === 'esm' ? ['--input-type=module', '-e', script] : ['-e', script])) as Record<string, number | string>
    loadedBy.set(system, out)
  }
  return out
}

describe('the built package (npm test builds it first)', () => {
  test.each(NODE_SUBPATHS)('import(%s) from the ESM build', (name) => {
    expect(loaded('esm')[name]).toBeGreaterThan(0)
  })

  test.each(NODE_SUBPATHS)('require(%s) from the CJS build', (name) => {
    expect(loaded('cjs')[name]).toBeGreaterThan(0)
  })

  // npm itself runs on the machine's Node (20 here), older than the Node 24 that runs the tests.
  const npmNode = process.env.npm_node_execpath
  test.runIf(npmNode && execFileSync(npmNode, ['--version'], { encoding: 'utf8' }).trim() !== process.version)(
    "require() of the CJS build works on npm's own Node too, without require(esm)",
    () => {
      const out = execFileSync(npmNode!, ['-e', `const m = require('./dist/index.cjs'); console.log(process.version, typeof m.createClient, typeof m.createClient({ apiKey: 'k' }).exchanges)`], { cwd: ROOT, encoding: 'utf8' })
      expect(out.trim()).toMatch(/^v\d+\.\d+\.\d+ function function$/)
    },
  )

  test('msw stays out of the SDK and schema entries (it is an optional peer dependency)', () => {
    for (const file of ['dist/index.js', 'dist/schemas.js', 'dist/index.cjs', 'dist/mocks/index.js', 'dist/mocks/server.js']) {
      expect(readFileSync(`${ROOT}/${file}`, 'utf8'), file).not.toMatch(/from ["']msw|require\(["']msw/)
    }
    expect(pkg.peerDependenciesMeta.msw.optional).toBe(true)
    // The worker entry imports msw/browser and leaves it to the app's bundler.
    const browserEntry = readFileSync(`${ROOT}/dist/mocks/browser.js`, 'utf8')
    expect(browserEntry).toMatch(/from ["']msw\/browser["']/)
    expect(browserEntry).not.toMatch(/from ["']msw\/node["']|from ["']node:/)
  })

  test('prom-client is the CLI\'s alone: imported dynamically (for export --metrics-port only), never by the SDK entries', () => {
    expect(pkg.dependencies['prom-client']).toBeDefined()
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/schemas.js', 'dist/redis.js', 'dist/mocks/index.js', 'dist/mocks/server.js', 'dist/mocks/browser.js']) {
      expect(readFileSync(`${ROOT}/${file}`, 'utf8'), file).not.toContain('prom-client')
    }
    const mentions = readdirSync(`${ROOT}/dist`).filter((f) => f.endsWith('.js') && readFileSync(`${ROOT}/dist/${f}`, 'utf8').includes('prom-client'))
    expect(mentions.length).toBeGreaterThan(0)
    for (const file of mentions) {
      const text = readFileSync(`${ROOT}/dist/${file}`, 'utf8')
      expect(text, file).not.toMatch(/from ["']prom-client["']|require\(["']prom-client["']\)/)
      expect(text, file).toMatch(/import\(["']prom-client["']\)/)
    }
  })

  test('market-candles/mocks/browser is ESM for browsers: an app bundles it with msw/browser', () => {
    expect(pkg.exports['./mocks/browser']).toEqual({ types: './dist/mocks/browser.d.ts', default: './dist/mocks/browser.js' })
    const { outputFiles } = buildSync({
      stdin: { contents: `export { setupMockWorker } from 'market-candles/mocks/browser'`, resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    })
    const code = outputFiles[0]!.text
    expect(code).toContain('mockServiceWorker.js')
    expect(code).not.toMatch(/from ["']node:|require\(["']node:/)
  })

  test('the reference service from the built mocks entry answers like the source', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `const { createMockService } = await import('market-candles/mocks'); const s = createMockService({ now: '2025-01-01' }); const r = await s.handle({ method: 'GET', url: '/v1/exchanges' }); console.log(r.status, r.body.length)`,
    ])
    expect(out.trim()).toBe('200 2')
  })

  test('market-candles/openapi.json is the OpenAPI document, for import (with type json) and require; the SDK entries do not carry its generator', () => {
    const esm = node(['--input-type=module', '-e', `const m = await import('market-candles/openapi.json', { with: { type: 'json' } }); console.log(m.default.openapi, Object.keys(m.default.paths).length)`])
    expect(esm.trim()).toBe('3.1.0 6')
    expect(node(['-e', `console.log(require('market-candles/openapi.json').openapi)`]).trim()).toBe('3.1.0')
    expect(pkg.files).toContain('docs/openapi.json')
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/schemas.js']) {
      expect(readFileSync(`${ROOT}/${file}`, 'utf8'), file).not.toMatch(/jsonSchemaDialect|toJSONSchema/)
    }
  })
})
