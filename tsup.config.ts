import { defineConfig } from 'tsup'

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
    target: 'node22',
    external: ['msw', 'msw/node'],
    noExternal: ['ky'],
  },
  {
    entry: { cli: 'mocks/cli/main.ts', 'export-worker': 'cli/export/worker-entry.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node22',
    external: ['msw', 'msw/node'],
    // node:sqlite exists only under its node: name (there is no bare 'sqlite' builtin).
    removeNodeProtocol: false,
  },
])
