import { defineConfig } from 'vitest/config'

// The workers of test/sessions/parallel.test.ts: five files on five threads at once, against the
// one `serve` process whose URL the parent passes in MC_URL.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['workers/*.session.ts'],
    pool: 'threads',
    maxWorkers: 5,
    fileParallelism: true,
    testTimeout: 60_000,
  },
})
