import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { defineConfig } from 'tsup'
import type { Plugin } from 'esbuild'

// The package version, written into the SDK's User-Agent at build time (src/client/user-agent.ts).
const version = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version as string
const define = { __MARKET_CANDLES_VERSION__: JSON.stringify(version) }

const entry = {
  index: 'src/index.ts',
  schemas: 'src/schemas/index.ts',
  redis: 'src/redis/index.ts',
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
// Comments and strings are matched first and kept as they are.
const SCHEMA_CALL =
  /(\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|(?<![\w$.])(z\s*\.\s*(?:iso\s*\.\s*)?[a-z]\w*|openEnum|requiredParam|optionalParam)(\s*<[^()]*?>)?\s*\(/g
const markPure = (source: string) =>
  source.replace(SCHEMA_CALL, (match, kept: string | undefined, call: string, generic = '') => (kept !== undefined ? kept : `/* @__PURE__ */ ${call}${generic}(`))
const pureSchemaCalls: Plugin = {
  name: 'pure-schema-calls',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8')
      return { contents: markPure(source), loader: 'ts' }
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
    define,
    clean: true,
    target: 'node22',
    external: ['msw', 'msw/node', 'msw/browser', 'ioredis'],
    esbuildPlugins: [pureSchemaCalls],
  },
  {
    // Its one dependency, zod, ships CommonJS too: require() never depends on require(esm).
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    define,
    target: 'node22',
    external: ['msw', 'msw/node', 'ioredis'],
  },
  {
    entry: { cli: 'cli/main.ts', 'export-worker': 'cli/export/worker-entry.ts', 'export-sink': 'cli/export/sink-thread/thread-entry.ts' },
    format: ['esm'],
    sourcemap: true,
    define,
    target: 'node22',
    // ioredis: an optional peer, loaded only for --redis.
    external: ['msw', 'msw/node', 'ioredis'],
    // node:sqlite exists only under its node: name (there is no bare 'sqlite' builtin).
    removeNodeProtocol: false,
  },
])
