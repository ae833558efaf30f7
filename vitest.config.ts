import { readFileSync } from 'node:fs'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { configDefaults, defineConfig } from 'vitest/config'

const version = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version as string

/**
 * Files that change what the whole process sees (msw's setupServer patches fetch and node:http, a
 * DOM environment, a patched global or prototype, stubbed environment variables): each runs in a
 * fresh worker of its own. Every other file shares its worker's modules with the files before it
 * (`isolate: false`): evaluating zod, msw and the service once per worker instead of once per file
 * halved the CPU of the 50 shortest files (48 s → 22 s, 2026-11-27). A new test file that patches a
 * global, uses vi.mock or setupServer/setupMockService goes in this list.
 */
const ISOLATED = [
  'test/public-api.test.ts',
  'test/browser/**/*.test.ts',
  'test/mocks/node-helper.test.ts',
  'test/mocks/sessions.test.ts',
  'test/mocks/running-clock.test.ts',
  'test/mocks/journal.test.ts',
  'test/mocks/faults-v2.test.ts',
  'test/schemas/wire-shapes.test.ts',
  'test/sdk/request-options.test.ts',
  'test/sdk/follow-listeners.test.ts',
  'test/mocks/arrange-data-sessions.test.ts',
]

/**
 * The longest files (measured 2026-11-27; CPU s in the full run: typecheck 20, parquet 43, postgres
 * 39, postgres-batches 20, resume 21, examples 18, conformance-deviations 16), started first so that
 * none of them is left running alone at the end. A CI clone has no duration cache, and vitest would
 * order its files by size. With a cache (a developer's machine) the rest follow by cached duration.
 */
const LONG_FIRST = [
  'test/typecheck.test.ts',
  'test/consumer.test.ts',
  'test/runtimes.test.ts',
  'test/export/follow-chaos.test.ts',
  'test/export/parquet.test.ts',
  'test/export/postgres.test.ts',
  'test/export/postgres-batches.test.ts',
  'test/export/resume.test.ts',
  'test/examples.test.ts',
  'test/cli/conformance-deviations.test.ts',
  'test/api-docs.test.ts',
  'test/sdk/uncoordinated-clients.test.ts',
  'test/cli/conformance-serve.test.ts',
  'test/export/coverage-and-resample.test.ts',
  'test/export/follow.test.ts',
  'test/export/errors.test.ts',
  'test/cli/serve.test.ts',
  'test/mocks/encode-json.test.ts',
  'test/export/flags-and-progress.test.ts',
  'test/export/redis-and-shard.test.ts',
  'test/export/follow-outage.test.ts',
  'test/export/follow-redis-outage.test.ts',
  'test/runners.test.ts',
  'test/mocks/load-export.test.ts',
]

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (spec: TestSpecification) => {
      const at = LONG_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`))
      return at < 0 ? LONG_FIRST.length : at
    }
    return sorted
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map(({ spec }) => spec)
  }
}

export default defineConfig({
  // The version the build writes into the SDK (tsup.config.ts), for tests that run the sources.
  define: { __MARKET_CANDLES_VERSION__: JSON.stringify(version) },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores: keep the pool small so server tests are not starved.
    maxWorkers: 2,
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: [...configDefaults.exclude] } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
      // (An `exclude` replaces vitest's default one: node_modules/ stays out only when listed again. The
      // runner projects under test/runners/ install packages there, zod's own tests among them.)
    ],
  },
})
