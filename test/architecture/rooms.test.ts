import { describe, expect, test } from 'vitest'
import { importCycles, importsOf, sources } from './import-graph.js'

/*
 * The rooms of mocks/ and cli/ and what each may import (DEVELOPERS.md draws the same table).
 * A file belongs to the room with the longest matching path (a folder, or a single file); a room
 * may always import its own files and src/ (test/architecture/layers.test.ts keeps src/ below).
 * An entry ending in `/*` allows only the files directly in that folder, not its sub-folders.
 */
const ROOMS: Record<string, readonly string[]> = {
  // mocks/data: stores, data files and the shapes of arranged data; imports nothing of mocks/ above it
  'mocks/data': [],
  'mocks/data/procedural': ['mocks/data/*'],
  'mocks/data/aggregation': ['mocks/data/*'],
  'mocks/data/overlay': ['mocks/data/*'],
  'mocks/data/export-files': ['mocks/data/*', 'mocks/data/procedural', 'mocks/data/overlay'],
  // mocks/core: the service, no HTTP and no MSW; its rooms from the bottom up
  'mocks/core/message': [],
  'mocks/core/state': ['mocks/core/message', 'mocks/data'],
  'mocks/core/faults': ['mocks/core/message'],
  'mocks/core/journal': ['mocks/core/faults', 'mocks/core/message'],
  // how the answers fill interface.md's gaps another way (D13): applied to an answer on its way out
  'mocks/core/variant': ['mocks/core/message'],
  'mocks/core/request': ['mocks/core/variant', 'mocks/core/state', 'mocks/core/faults', 'mocks/core/journal', 'mocks/core/message', 'mocks/data'],
  'mocks/core/arranged': ['mocks/core/state', 'mocks/data'],
  'mocks/core/service': ['mocks/core/variant', 'mocks/core/request', 'mocks/core/arranged', 'mocks/core/journal', 'mocks/core/faults', 'mocks/core/state', 'mocks/core/message', 'mocks/data'],
  'mocks/core/control-plane': ['mocks/core/variant', 'mocks/core/service', 'mocks/core/arranged', 'mocks/core/journal', 'mocks/core/faults', 'mocks/core/state', 'mocks/core/message', 'mocks/data'],
  // the adapters, each over the core; the MSW ones share mocks/msw, none imports mocks/server
  'mocks/server': ['mocks/core', 'mocks/data'],
  'mocks/msw': ['mocks/core', 'mocks/data'],
  'mocks/node': ['mocks/msw', 'mocks/core', 'mocks/data'],
  'mocks/browser': ['mocks/msw', 'mocks/core', 'mocks/data'],
  'mocks/index.ts': ['mocks'],
  // cli/: what every command shares, below the commands; run-cli.ts picks one, main.ts (the bin) runs it
  cli: [],
  'cli/run-cli.ts': ['cli'],
  'cli/main.ts': ['cli'],
  'cli/serve': ['cli/*', 'mocks'],
  'cli/conformance': ['cli/*', 'mocks/data/accounts.ts'],
  // cli/export, from the bottom up: flags and limits, the plan, the output (sinks, then the sink
  // thread), the history runner and the follow; run-export.ts at its root wires one export; the
  // threads/ above it start it (the main thread, then the export worker)
  'cli/export/limits': ['cli/*'],
  'cli/export/flags': ['cli/*', 'cli/export/limits'],
  'cli/export/plan': ['cli/export/flags'],
  'cli/export/progress': [],
  'cli/export/sinks': ['cli/export/plan', 'cli/export/flags', 'mocks/data/export-files'],
  'cli/export/sink-thread': ['cli/export/sinks', 'cli/export/plan', 'cli/export/flags'],
  'cli/export/client': ['mocks/server/index.ts'],
  'cli/export/history': ['cli/export/sinks', 'cli/export/progress', 'cli/export/plan', 'cli/export/flags'],
  'cli/export/outage': ['cli/export/history', 'cli/export/progress'],
  'cli/export/metrics': ['cli/export/outage', 'cli/export/sinks', 'cli/export/progress', 'cli/export/plan', 'cli/export/flags', 'mocks/server/listen-url.ts'],
  'cli/export/follow': ['cli/export/history', 'cli/export/metrics', 'cli/export/outage', 'cli/export/sinks', 'cli/export/progress', 'cli/export/plan', 'cli/export/flags'],
  'cli/export': ['cli/*', 'cli/export'],
  'cli/export/threads': ['cli/*', 'cli/export/run-export.ts', 'cli/export/sink-thread/worker-script.ts', 'cli/export/plan', 'cli/export/flags'],
}

const roomOf = (file: string): string | undefined =>
  Object.keys(ROOMS)
    .filter((room) => file === room || file.startsWith(`${room}/`))
    .sort((a, b) => b.length - a.length)[0]

function allowed(from: string, target: string): boolean {
  if (target === 'src' || target.startsWith('src/')) return true
  const room = roomOf(from)!
  if (roomOf(target) === room) return true
  return ROOMS[room]!.some((entry) =>
    entry.endsWith('/*')
      ? target.slice(0, target.lastIndexOf('/')) === entry.slice(0, -2)
      : target === entry || target.startsWith(`${entry}/`),
  )
}

const FILES = [...sources('mocks'), ...sources('cli')]

describe('rooms: each folder of mocks/ and cli/ imports only the rooms its row allows', () => {
  test('every file lies in a room of the table (a new folder gets a row)', () => {
    expect(FILES.filter((file) => roomOf(file) === undefined)).toEqual([])
    expect(FILES.length).toBeGreaterThan(100)
  })

  test('no import leaves its room for one the table does not allow', () => {
    const found = FILES.flatMap((file) => importsOf(file).map((target) => `${file} -> ${target}`))
    const outside = found.filter((edge) => {
      const [from, target] = edge.split(' -> ') as [string, string]
      return !allowed(from, target)
    })
    expect(outside).toEqual([])
  })

  test('every room of the table holds files (a moved folder leaves no stale row)', () => {
    expect(Object.keys(ROOMS).filter((room) => !FILES.some((file) => roomOf(file) === room))).toEqual([])
  })
})

describe('import cycles: none among the files of src/, mocks/ and cli/', () => {
  test('no two files import each other, directly or through others (import type included)', () => {
    const files = [...sources('src'), ...sources('mocks'), ...sources('cli')]
    // each entry: the files of one cycle, sorted
    expect(importCycles(files).map((cycle) => cycle.join(', '))).toEqual([])
    expect(files.length).toBeGreaterThan(300)
  })
})
