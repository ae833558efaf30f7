import { readFileSync } from 'node:fs'
import { defineConfig } from 'tsup'

// The package version, written into the SDK's User-Agent at build time (src/client/user-agent.ts).
const version = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version as string
const define = { __MARKET_CANDLES_VERSION__: JSON.stringify(version) }

const entry = {
  index: 'src/index.ts',
  schemas: 'src/schemas/index.ts',
  'mocks/index': 'mocks/index.ts',
  'mocks/msw': 'mocks/msw/index.ts',
  'mocks/node': 'mocks/node/index.ts',
  'mocks/server': 'mocks/server/index.ts',
}

export default defineConfig([
  {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    define,
    clean: true,
    target: 'node22',
    external: ['msw', 'msw/node'],
  },
  {
    // ky is ESM-only: bundled into the CJS build, so require() never depends on require(esm).
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    define,
    target: 'node22',
    external: ['msw', 'msw/node'],
    noExternal: ['ky'],
  },
  {
    entry: { cli: 'mocks/cli/main.ts', 'export-worker': 'cli/export/worker-entry.ts' },
    format: ['esm'],
    sourcemap: true,
    define,
    target: 'node22',
    external: ['msw', 'msw/node'],
    // node:sqlite exists only under its node: name (there is no bare 'sqlite' builtin).
    removeNodeProtocol: false,
  },
])
