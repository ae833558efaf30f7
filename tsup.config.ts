import { readFile } from 'node:fs/promises'
import { defineConfig } from 'tsup'
import type { Plugin } from 'esbuild'

const entry = {
  index: 'src/index.ts',
  schemas: 'src/schemas/index.ts',
  'mocks/index': 'mocks/index.ts',
  'mocks/msw': 'mocks/msw/index.ts',
  'mocks/node': 'mocks/node/index.ts',
  'mocks/server': 'mocks/server/index.ts',
}

/*
 * Building a schema has no side effects, but a bundler cannot know that of a call into another
 * module (esbuild ignores zod's own @__NO_SIDE_EFFECTS__ there). Marking each zod builder call in
 * src/ with @__PURE__ lets an app that imports only createClient drop the schemas it does not use,
 * and zod with them (test/bundle-size.test.ts holds the budget).
 */
const SCHEMA_CALL = /(?<![\w$.])(z\s*\.\s*(?:iso\s*\.\s*)?[a-z]\w*|openEnum|requiredParam|optionalParam)(\s*<[^()]*?>)?\s*\(/g
const pureSchemaCalls: Plugin = {
  name: 'pure-schema-calls',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8')
      return { contents: source.replace(SCHEMA_CALL, '/* @__PURE__ */ $1$2('), loader: 'ts' }
    })
  },
}

export default defineConfig([
  {
    // The worker helper is for browsers: ESM only, msw/browser left to the app (optional peer).
    entry: { ...entry, 'mocks/browser': 'mocks/browser/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    external: ['msw', 'msw/node', 'msw/browser'],
    esbuildPlugins: [pureSchemaCalls],
  },
  {
    // ky is ESM-only: bundled into the CJS build, so require() never depends on require(esm).
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node22',
    external: ['msw', 'msw/node'],
    noExternal: ['ky'],
  },
  {
    entry: { cli: 'mocks/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node22',
    external: ['msw', 'msw/node'],
  },
])
