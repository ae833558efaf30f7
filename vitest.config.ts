import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

const version = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version as string

export default defineConfig({
  // The version the build writes into the SDK (tsup.config.ts), for tests that run the sources.
  define: { __MARKET_CANDLES_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores: keep the pool small so server tests are not starved.
    maxWorkers: 2,
  },
})
