import { describe, expect, test } from 'vitest'
import { APIUserAbortError, type PageCursor } from '../../src/index.js'
import { CandleWalk } from '../../src/pagination/index.js'

// The candle iterator is written by hand (not an async generator); these pin the generator
// contract it promises: in-order service of overlapping calls, and closing the page walk.
const MINUTE = 60_000
const T0 = Date.UTC(2024, 0, 1)
const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')
const LIMIT = 4
const TOTAL = 10 // pages of 4, 4, 2

function source() {
  const requests: string[] = []
  return {
    requests,
    fetchPage: async (query: Record<string, string>) => {
      requests.push(query.start!)
      await new Promise((r) => setTimeout(r, 1))
      const from = Math.ceil((Date.parse(query.start!) - T0) / MINUTE)
      return Array.from({ length: Math.max(0, Math.min(LIMIT, TOTAL - from)) }, (_, i) => ({ close_ts: iso(T0 + (from + i) * MINUTE) }))
    },
  }
}
const cursor: PageCursor = { version: 1, endpoint: 'exchange_ohlcv', direction: 'forward', query: { start: iso(T0), limit: String(LIMIT) } }
const all = Array.from({ length: TOTAL }, (_, i) => iso(T0 + i * MINUTE))

describe('the candle iterator keeps the async-generator contract', () => {
  test('calls to next() made before the previous one settled are answered in order, across page boundaries', async () => {
    const it = new CandleWalk(source(), cursor, { concurrency: 1 })[Symbol.asyncIterator]()
    const results = await Promise.all(Array.from({ length: TOTAL + 2 }, () => it.next()))
    expect(results.map((r) => (r.done ? 'done' : r.value.close_ts))).toEqual([...all, 'done', 'done'])
  })

  test('return() mid-page ends the walk: no further page is requested, next() is done, the cursor resumes after the last candle', async () => {
    const src = source()
    const walk = new CandleWalk(src, cursor, { concurrency: 1 })
    const it = walk[Symbol.asyncIterator]()
    await it.next()
    await it.next()
    expect(await it.return(undefined)).toEqual({ value: undefined, done: true })
    expect(await it.next()).toEqual({ value: undefined, done: true })
    expect(src.requests).toHaveLength(1)
    const rest: string[] = []
    for await (const c of new CandleWalk(source(), walk.cursor!, { concurrency: 1 })) rest.push(c.close_ts)
    expect(rest).toEqual(all.slice(2))
  })

  test('a return() queued behind a page fetch takes effect after it, as in a generator: earlier calls get their candles, none comes after', async () => {
    const src = source()
    const it = new CandleWalk(src, cursor, { concurrency: 1 })[Symbol.asyncIterator]()
    const settled: string[] = []
    const nexts = Array.from({ length: LIMIT + 1 }, (_, k) => it.next().then((r) => (settled.push(`next ${k}`), r)))
    const closed = it.return(undefined).then((r) => (settled.push('return'), r))
    const results = await Promise.all(nexts)
    expect(await closed).toEqual({ value: undefined, done: true })
    expect(settled).toEqual([...nexts.map((_, k) => `next ${k}`), 'return'])
    expect(results.map((r) => (r.done ? 'done' : r.value.close_ts))).toEqual(all.slice(0, LIMIT + 1))
    expect(src.requests).toHaveLength(2)
    expect(await it.next()).toEqual({ value: undefined, done: true }) // nothing left over from the page in flight
  })

  test('throw() ends the walk with that error; the iterator is done after it', async () => {
    const it = new CandleWalk(source(), cursor, { concurrency: 1 })[Symbol.asyncIterator]()
    await it.next()
    const boom = new Error('consumer gave up')
    await expect(it.throw(boom)).rejects.toBe(boom)
    expect(await it.next()).toEqual({ value: undefined, done: true })
  })

  test('an abort between two candles of one page rejects with APIUserAbortError, then the iterator is done', async () => {
    const controller = new AbortController()
    const src = source()
    const it = new CandleWalk(src, cursor, { concurrency: 1, signal: controller.signal })[Symbol.asyncIterator]()
    await it.next()
    controller.abort()
    await expect(it.next()).rejects.toBeInstanceOf(APIUserAbortError)
    expect(await it.next()).toEqual({ value: undefined, done: true })
    expect(src.requests).toHaveLength(1)
  })

  test('break inside for await closes the walk; iterating the same walk again continues where it stopped', async () => {
    const walk = new CandleWalk(source(), cursor, { concurrency: 1 })
    const seen: string[] = []
    for await (const c of walk) {
      seen.push(c.close_ts)
      if (seen.length === 5) break
    }
    for await (const c of walk) seen.push(c.close_ts)
    expect(seen).toEqual(all)
    expect(walk.cursor).toBeNull()
  })
})
