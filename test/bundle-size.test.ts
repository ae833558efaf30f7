import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { buildSync } from 'esbuild'
import { describe, expect, test } from 'vitest'

/*
 * The SDK in a web app: `import { createClient } from 'market-candles'` bundled as an app's bundler
 * would (esbuild --bundle --minify --format=esm --platform=browser), then gzip -9. The size is
 * deterministic for a given lockfile; docs/sdk.md and docs/browser.md state it.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8'))
/**
 * 24 KB, in esbuild's units (1 KB = 1024 bytes). It was 16 KB until the client gained the follow
 * methods (3.7 KB gzip of it) beside walk gaps, 18 KB until follows rode out outages, told their
 * state and learnt the publish delay (1.4 KB of it), and 19 KB until the client read every answer
 * interface.md permits (D13: the close-time module, pages rebuilt canonical, error bodies of any
 * shape; 1.6 KB of it), and 21 KB until follows learnt the service clock's speed and phase from its
 * Date headers and limiters learnt an account's room from 429s alone (2.2 KB of it).
 */
const BUDGET_BYTES = 24 * 1024

function bundle(contents: string): { minified: string; gzipBytes: number } {
  const { outputFiles } = buildSync({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  })
  const minified = outputFiles[0]!.text
  return { minified, gzipBytes: gzipSync(minified, { level: 9 }).length }
}

describe('the SDK bundle for the browser', () => {
  // The built package, as an app gets it from npm (npm test builds it first). Named by its file:
  // tsconfig.json maps 'market-candles' to the sources for the examples.
  const ENTRY = pkg.exports['.'].import.default as string
  const built = bundle(`export { createClient } from '${ENTRY}'`)

  test('holds nothing of the CLI: no prom-client, no metrics server', () => {
    expect(built.minified).not.toContain('prom-client')
    expect(built.minified).not.toContain('market_candles_')
  })

  test(`import { createClient } from 'market-candles', minified and gzipped, stays within 24 KB (${BUDGET_BYTES} bytes)`, () => {
    expect(built.gzipBytes).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  test('the bundle carries no zod: bodies, queries and cursors are checked by the light checkers', () => {
    expect(/\$ZodType|\$ZodObject|zod\.compile/.test(built.minified)).toBe(false)
    // ...and still checks bodies: the wording of a response problem is in it.
    expect(built.minified.includes('an ISO 8601 UTC datetime')).toBe(true)
  })

  test('the Redis limiter stays out of it: ioredis is an optional peer, imported only by market-candles/redis', () => {
    expect(/ioredis|cjson\.encode|EVALSHA/i.test(built.minified)).toBe(false)
    expect(pkg.peerDependenciesMeta.ioredis).toEqual({ optional: true })
    expect(pkg.dependencies.ioredis).toBeUndefined()
  })

  test('an app importing createClient alone bundles no resample, Redis, Parquet or mock module (esbuild metafile of the sources)', () => {
    // The built entry is one file, so the modules are told apart on the sources, bundled the same way.
    const { metafile } = buildSync({
      stdin: { contents: `export { createClient } from './src/index.ts'`, resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
      define: { __MARKET_CANDLES_VERSION__: '"test"' },
    })
    const inBundle = Object.entries(Object.values(metafile.outputs)[0]!.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path)
    expect(inBundle.some((path) => path.startsWith('src/client/')), inBundle.join('\n')).toBe(true)
    // Nothing of resample: the close_ts reader the walks share with it is src/contract/close-time.ts.
    const unwanted = /^src\/analysis\/|^src\/redis\/|^mocks\/|^cli\/|parquet|node_modules\/(msw|ioredis|hyparquet|@mswjs)\//
    expect(inBundle.filter((path) => unwanted.test(path))).toEqual([])
    // ...and the built bundle carries none of their names.
    expect(built.minified).not.toMatch(/ResampleError|bucket_fill|hyparquet|PAR1|createMockService|setupMockService|mockServiceWorker/)
  })

  test('a schema an app imports still brings zod along (the pure marks drop only unused schemas)', () => {
    const withSchema = bundle(`export { createClient, exchangeCandleSchema } from '${ENTRY}'`)
    expect(/\$ZodObject/.test(withSchema.minified)).toBe(true)
    expect(withSchema.gzipBytes).toBeGreaterThan(built.gzipBytes)
  })
})
