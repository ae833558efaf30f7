import { readFileSync } from 'node:fs'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { configDefaults, defineConfig } from 'vitest/config'

const version = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version as string

/**
 * Files that change what the whole process sees (a DOM environment, a patched global or prototype,
 * stubbed environment variables, listeners counted on the process): each runs in a
 * fresh worker of its own. Every other file shares its worker's modules with the files before it
 * (`isolate: false`): evaluating zod, msw and the service once per worker instead of once per file
 * halved the CPU of the 50 shortest files (48 s → 22 s, 2026-11-27). A new test file that patches a
 * global (vi.mock, vi.stubGlobal, vi.stubEnv, a DOM environment) goes in this list; one that listens
 * with setupMockService or setupServer closes it in afterAll (test/support/unpatched-globals.ts checks).
 */
const ISOLATED = [
  // (test/public-api.test.ts, test/browser/msw-cors.test.ts and test/browser/chart-page.test.ts patch
  // nothing: child processes, msw's getResponse, a browser. Shared, each saves a worker's start and
  // its module graph: about 1 s of CPU, 2026-11-29. So do the files that build setupMockService and
  // use its fetch without listen(), which patches nothing; node-helper.test.ts, whose listen() is
  // closed in afterAll; and the files that patch a global for a moment and put it back
  // (wire-shapes: Function, follow-listeners: addEventListener, request-options: vi.stubEnv).
  // test/support/unpatched-globals.ts fails a shared file that leaves one of them changed.)
  'test/browser/sdk-with-mock.*.test.ts',
]

/**
 * The order files start in: the run ends when the last long file ends, so the longest start first
 * (longest processing time first). Walls of a fresh clone's `CI=true bash .ci/run` on a quiet machine
 * (2026-11-29, 217 s): before this order the 40 s and 34 s files (concurrent-walks, api-docs) started
 * 21st and 31st. Six workers (maxWorkers) because about a third of the files mostly wait (a rate
 * limit's pacing, a running mock clock, child processes) while others compute.
 * A CI clone has no duration cache and vitest would order its files by size; with a cache (a
 * developer's machine) the files not listed follow by cached duration.
 */
const LONG_FIRST = [
  'test/cli/conformance-deviations.test.ts', // 69 s
  'test/consumer.test.ts', // 51 s
  'test/cli/conformance-variants.test.ts', // 50 s
  'test/cli/conformance-serve.test.ts', // 44 s
  'test/sdk/concurrent-walks.test.ts', // 40 s
  'test/api-docs.test.ts', // 34 s
  'test/export/resume.test.ts', // 33 s
  'test/export/sinks/postgres-batches.test.ts', // 33 s
  'test/variants/sdk-matrix.test.ts', // 32 s
  'test/export/follow/follow.test.ts', // 30 s
  'test/export/follow/follow-outage.test.ts', // 29 s
  'test/export/follow/follow-chaos.test.ts', // 29 s
  'test/sdk/rate-limit/uncoordinated-clients.test.ts', // 28 s
  'test/redis/redis-rate-limiter.test.ts', // 27 s
  'test/sdk/walks.test.ts', // 27 s
  'test/export/sinks/parquet.test.ts', // 24 s
  'test/export/redis-and-shard.test.ts', // 22 s
  'test/sdk/follow/follow-learned-delay.test.ts', // 22 s
  'test/sdk/rate-limit/rate-limit-variants.test.ts', // 22 s
  'test/sdk/follow/follow.test.ts', // 17 s alone (2026-11-29: side by side)
  'test/export/flags-and-progress.test.ts', // 21 s
  'test/export/sinks/postgres.test.ts', // 19 s
  'test/sdk/follow/follow-outages.test.ts', // 11 s alone (2026-11-29: side by side)
  'test/mocks/data/load-export.test.ts', // 19 s
  'test/examples.test.ts', // 13 s alone (2026-11-29: two shared processes)
  // Then the others of LONG_FIRST before 2026-11-29's reorder (under 18 s in that run), then the files of 5-15 s.
  'test/variants/export-matrix.test.ts', // waits: 5.3 / 11 (alone, load ~4, 2026-11-29; its exports in process)
  'test/typecheck.test.ts', // computes
  'test/runtimes.test.ts', // computes
  'test/sdk/follow/follow-clock-rate.test.ts', // waits
  'test/export/other-deployments.test.ts', // 6.0 / 6.2 (alone, load ~3.4, 2026-11-29; its exports in process)
  'test/export/errors.test.ts', // 8.1 / 14.5 (alone, load ~1.4, 2026-11-29)
  'test/public-api.test.ts', // waits: 4.3 / 12.7 (14 Node processes one after another; left unlisted it started 218 s into a 233 s run, 2026-11-29)
  'test/cli/conformance-rate.test.ts', // waits: 3 / 11
  'test/sdk/retries.test.ts', // waits: 3 / 11
  'test/export/follow/follow-redis-outage.test.ts', // waits: 3.4 / 10
  'test/export/coverage-and-resample.test.ts',
  'test/sdk/follow/follow-property.test.ts', // waits: 2.8 / 10
  'test/cli/serve.test.ts',
  'test/sdk/follow/follow-listeners.test.ts', // waits: 3 / 10
  'test/runners.test.ts',
  'test/export/sinks/formats.test.ts',
  'test/package.test.ts',
  'test/browser/chart-page.test.ts',
  'test/contract/control-plane-data.test.ts',
  'test/sdk/rate-limit/rate-limiter.test.ts',
  'test/cli/serve-shutdown.test.ts',
  'test/sdk/wire-faults.test.ts',
  'test/mocks/paging.test.ts',
  'test/sessions/parallel.test.ts',
  'test/mocks/data/fixtures.test.ts',
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
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false, setupFiles: ['test/support/unpatched-globals.ts'] } },
      // (An `exclude` replaces vitest's default one: node_modules/ stays out only when listed again. The
      // runner projects under test/runners/ install packages there, zod's own tests among them.)
    ],
  },
})
