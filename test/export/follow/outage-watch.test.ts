/*
 * The outage lines of `export --follow` (cli/export/outage/outage-watch.ts), on a clock the test
 * moves: one line when an outage starts, one when it is over, never one per retry.
 */
import { describe, expect, test } from 'vitest'
import { OutageWatch } from '../../../cli/export/outage/outage-watch.js'

function watch(atEdge: (key: string) => boolean = () => true) {
  let now = 0
  const lines: string[] = []
  const w = new OutageWatch({ say: (l) => lines.push(l), now: () => now, wallDate: () => Date.parse('2026-01-01T00:00:00Z') + now })
  w.following(['a', 'b'], atEdge)
  return { w, lines, advance: (ms: number) => (now += ms) }
}

describe('outage lines', () => {
  test('a failure retried and answered within 5 s is no outage: no line', () => {
    const { w, lines, advance } = watch()
    w.failure('503')
    advance(1500)
    w.failure('503')
    advance(1000)
    w.answered()
    expect(lines).toEqual([])
    expect(w.totalSeconds()).toBe(0)
  })

  test('failures for 5 s make one line however many retries; the end is one line with its length and the candles caught up', () => {
    const edge = new Set<string>()
    const { w, lines, advance } = watch((key) => edge.has(key))
    for (let i = 0; i < 20; i++) {
      w.failure('connection error')
      advance(1000)
    }
    expect(lines).toHaveLength(1)
    expect(lines[0]).toBe('export: outage: the service fails since 2026-01-01T00:00:00Z (connection error); waiting it out, retrying with backoff. The next line says when it is over.')
    expect(w.failing?.reason).toBe('connection error')
    w.answered()
    expect(w.failing).toBeUndefined()
    w.pageWritten('a', 7)
    edge.add('a')
    w.pageWritten('a', 3)
    expect(lines).toHaveLength(1)
    edge.add('b')
    w.pageWritten('b', 10)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toBe('export: outage over: the service failed for 20.0 s (2026-01-01T00:00:00Z to 2026-01-01T00:00:20Z); caught up 20 candles of 2 series; following again.')
    expect(w.totalSeconds()).toBe(20)
    expect(w.count).toBe(1)
  })

  test('a request that failed for good starts the outage at once; failing again while catching up is the same outage', () => {
    const { w, lines, advance } = watch(() => false)
    w.failure('503', true)
    expect(lines).toHaveLength(1)
    advance(3000)
    w.answered()
    advance(1000)
    w.failure('503', true)
    advance(2000)
    w.live()
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatch(/^export: outage over: the service failed for 6\.0 s /)
    expect(w.count).toBe(1)
  })
})
