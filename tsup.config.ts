import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { defineConfig, type Plugin as TsupPlugin } from 'tsup'
import type { Plugin } from 'esbuild'

// The package version, written into the SDK's User-Agent at build time (src/client/transport/user-agent.ts).
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
  /(\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|(?<![\w$.])(z\s*\.\s*(?:iso\s*\.\s*)?[a-z_]\w*|openEnum|requiredParam|optionalParam)(\s*<[^()]*?>)?\s*\(/g
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

/*
 * msw 3 is ESM only. Node >= 22 loads it with require() (require(esm)), but Jest's CommonJS mode
 * cannot: `require('market-candles/mocks/node')` there failed deep inside msw with "Must use import
 * to load ES Module". The CommonJS builds require msw through this guard (a tsup plugin: tsup's own
 * externals come before any esbuild plugin), which throws an error saying what works instead
 * (test/runners/jest-cjs is the Jest CommonJS project that checks it).
 */
const MSW_REQUIRE_HELP =
  "market-candles: msw 3 is an ES module, and this CommonJS loader cannot require() it (Jest's default CommonJS mode cannot). " +
  "Use one of: (1) Jest in ESM mode: run `node --experimental-vm-modules node_modules/jest/bin/jest.js` and `import { setupMockService } from 'market-candles/mocks/node'`; " +
  "(2) in CommonJS, a real HTTP server without msw: `const { startMockServer } = require('market-candles/mocks/server')`, " +
  "`const server = await startMockServer({ port: 0 })`, then `createClient({ baseUrl: server.url, ... })` and `server.service` for the journal and faults; " +
  "(3) the core alone: `require('market-candles/mocks').createMockService().handle(request)`."
const cjsMswGuard: TsupPlugin = {
  name: 'cjs-msw-guard',
  renderChunk(code, chunk) {
    if (this.format !== 'cjs' || !chunk.path.endsWith('.cjs') || !/require\("msw(\/node)?"\)/.test(code)) return
    // Appended, so every line of the source map stays where it was; a function declaration is hoisted.
    const guard = `
function __requireMsw(id) {
  try {
    return require(id);
  } catch (error) {
    if (/ES Module|ERR_REQUIRE_ESM|ERR_REQUIRE_ASYNC_MODULE/.test(String(error && error.code) + " " + String(error && error.message))) {
      throw new Error(${JSON.stringify(MSW_REQUIRE_HELP)}, { cause: error });
    }
    throw error;
  }
}
`
    return { code: code.replace(/require\("(msw(?:\/node)?)"\)/g, '__requireMsw("$1")') + guard }
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
    plugins: [cjsMswGuard],
  },
  {
    entry: { cli: 'cli/main.ts', 'export-worker': 'cli/export/threads/worker-entry.ts', 'export-sink': 'cli/export/sink-thread/thread-entry.ts' },
    format: ['esm'],
    sourcemap: true,
    define,
    target: 'node22',
    // ioredis: an optional peer, loaded only for --redis.
    external: ['msw', 'msw/node', 'ioredis'],
    // zod inside the command's own chunks: resolving and evaluating its many ES modules from
    // node_modules was a fifth of a short export's start (0.26 -> 0.21 s of CPU, serve 0.25 -> 0.18 s
    // to listening, side by side, 2026-11-27). The command shares no schema object with the
    // package's other entries.
    noExternal: ['zod'],
    // node:sqlite exists only under its node: name (there is no bare 'sqlite' builtin).
    removeNodeProtocol: false,
  },
])
