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
 * The order files start in. The suite is CPU-bound on two cores overall, but about a third of its
 * files mostly wait (a rate limit's pacing, a running mock clock, child processes): with two workers
 * such a file held a slot while a core idled (vitest used 1.1 of 2 cores, 2026-11-27). So four
 * workers, and the long files alternate between those that compute and those that wait, so that
 * about two of each run at any time. Measured 2026-11-27, CPU s / wall s of each file alone (vitest
 * included).
 * A CI clone has no duration cache and vitest would order its files by size; with a cache (a
 * developer's machine) the files not listed follow by cached duration.
 */
const LONG_FIRST = [
  'test/export/parquet.test.ts', // computes
  'test/cli/conformance-serve.test.ts', // waits: 7 / 34
  'test/export/postgres.test.ts', // computes: 18 / 17
  'test/sdk/uncoordinated-clients.test.ts', // waits: 3 / 27
  'test/variants/export-matrix.test.ts', // waits: 5.3 / 11 (alone, load ~4, 2026-11-29; its exports in process)
  'test/variants/sdk-matrix.test.ts', // waits: 7.5 / 44 (load 35)
  'test/typecheck.test.ts', // computes
  'test/runtimes.test.ts', // computes
  'test/sdk/follow-learned-delay.test.ts', // waits: 2.5 / 24
  'test/sdk/follow-clock-rate.test.ts', // waits
  'test/consumer.test.ts', // waits: 37 / 49 (23 documentation blocks, conformance against serve; median of 3, pytest absent)
  'test/cli/conformance-deviations.test.ts', // computes: 16.5 / 35
  'test/cli/conformance-variants.test.ts', // waits: 13 / 62 at load ~25 (26 runs over one serve's sessions, side by side)
  'test/sdk/follow.test.ts', // waits: 3.4 / 24
  'test/export/other-deployments.test.ts', // 6.0 / 6.2 (alone, load ~3.4, 2026-11-29; its exports in process)
  'test/export/resume.test.ts', // computes: 8 / 20
  'test/redis/redis-rate-limiter.test.ts', // waits: 3.7 / 23
  'test/examples.test.ts', // computes: 16 / 16
  'test/sdk/follow-outages.test.ts', // waits: 3.4 / 21
  'test/sdk/rate-limit-variants.test.ts', // 18 s wall in a full run at load ~10 (2026-11-29)
  'test/api-docs.test.ts', // computes
  'test/export/follow-chaos.test.ts', // waits: 10 / 26
  'test/export/postgres-batches.test.ts', // computes: 12 / 9
  'test/export/follow-outage.test.ts', // waits: 10 / 22
  'test/export/follow.test.ts', // computes: 15 / 30
  'test/sdk/walks.test.ts', // waits: 8 / 22
  'test/export/errors.test.ts', // 8.1 / 14.5 (alone, load ~1.4, 2026-11-29)
  'test/cli/conformance-rate.test.ts', // waits: 3 / 11
  'test/export/redis-and-shard.test.ts', // computes: 8 / 17
  'test/sdk/retries.test.ts', // waits: 3 / 11
  'test/sdk/concurrent-walks.test.ts', // computes: 12 / 24
  'test/export/follow-redis-outage.test.ts', // waits: 3.4 / 10
  'test/export/coverage-and-resample.test.ts',
  'test/sdk/follow-property.test.ts', // waits: 2.8 / 10
  'test/cli/serve.test.ts',
  'test/sdk/follow-listeners.test.ts', // waits: 3 / 10
  'test/export/flags-and-progress.test.ts',
  'test/runners.test.ts',
  'test/mocks/load-export.test.ts',
  // Then the files of 5-15 s, longest first (a CI clone would order them by size).
  'test/export/formats.test.ts',
  'test/package.test.ts',
  'test/browser/chart-page.test.ts',
  'test/contract/control-plane-data.test.ts',
  'test/sdk/rate-limiter.test.ts',
  'test/cli/serve-shutdown.test.ts',
  'test/sdk/wire-faults.test.ts',
  'test/mocks/paging.test.ts',
  'test/sessions/parallel.test.ts',
  'test/mocks/fixtures.test.ts',
  'test/cli/serve-control-token.test.ts',
  'test/cli/conformance-inconclusive.test.ts',
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
    // Two cores, and files that wait beside files that compute: see LONG_FIRST.
    maxWorkers: 6,
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: [...configDefaults.exclude] } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
      // (An `exclude` replaces vitest's default one: node_modules/ stays out only when listed again. The
      // runner projects under test/runners/ install packages there, zod's own tests among them.)
    ],
  },
})
