import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      schemas: 'src/schemas/index.ts',
      'mocks/index': 'mocks/index.ts',
      'mocks/msw': 'mocks/msw/index.ts',
      'mocks/node': 'mocks/node/index.ts',
      'mocks/server': 'mocks/server/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    external: ['msw', 'msw/node'],
  },
  {
    entry: { cli: 'mocks/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node22',
    external: ['msw', 'msw/node'],
  },
])
