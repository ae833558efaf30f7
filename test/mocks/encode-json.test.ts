import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createMockService } from '../../mocks/core/service/service.js'
import { defaultDataset } from '../../mocks/data/procedural/default-dataset.js'
import { BytePool } from '../../mocks/core/encode/byte-pool.js'
import { encodeJson } from '../../mocks/core/encode/encode-json.js'
import { writeJsonNumber } from '../../mocks/core/encode/json-number.js'
import { INTERVALS } from '../../src/schemas/index.js'

// The standalone server writes bodies with its own encoder. Whatever the body, its bytes must be
// exactly those of Buffer.from(JSON.stringify(body)), the reference every other adapter uses.

// One pool for the whole file, every result given back: a reused buffer must never leak old bytes.
const pool = new BytePool()
const expectSameBytes = (body: unknown) => {
  const bytes = encodeJson(body, pool)
  expect(bytes.toString('latin1')).toBe(Buffer.from(JSON.stringify(body)).toString('latin1'))
  pool.give(bytes)
}

const numberText = (x: number) => {
  const b = new Uint8Array(32)
  const end = writeJsonNumber(b, 0, x)
  return end < 0 ? undefined : Buffer.from(b.subarray(0, end)).toString('latin1')
}

/** A decimal with up to 12 fraction digits, as prices and volumes are. */
const decimal = fc.tuple(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.integer({ min: 0, max: 12 })).map(([m, k]) => m / 10 ** k)

describe('writeJsonNumber writes the text JSON.stringify writes', () => {
  test('for any double (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(numberText(x)).toBe(JSON.stringify(x))
      }),
      { numRuns: 50_000 },
    )
  })

  test('for any decimal of up to 12 fraction digits, the fast path included (property)', () => {
    fc.assert(
      fc.property(decimal, (x) => {
        expect(numberText(x)).toBe(JSON.stringify(x))
      }),
      { numRuns: 50_000 },
    )
  })

  test('at the edges of the fast path', () => {
    const edges = [0, -0, 1e-6, 9.99999e-7, 1e-7, 0.000001, 0.1, 0.3, 0.1 + 0.2, 1, 9, 10, 99.99, 123456789.123456, 2147483647, 2147483648, 2147483648.5, 999999999999999, 1e15, 1e15 - 0.5, 1e21, 1e-9, 5e-324, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE]
    for (const x of [...edges, ...edges.map((e) => -e)]) expect(numberText(x), String(x)).toBe(JSON.stringify(x))
  })

  test('refuses NaN and infinities, for which JSON has no number', () => {
    for (const x of [Number.NaN, Infinity, -Infinity]) expect(numberText(x)).toBeUndefined()
  })
})

describe('encodeJson equals Buffer.from(JSON.stringify(body))', () => {
  // Small pools, so consecutive rows often repeat a value (the cached path) and sometimes do not.
  const value = fc.oneof(
    fc.constantFrom('bitstamp', 'BTC', '1m', 'a"b', 'back\\slash', 'line\nbreak', 'é', '😀', '', 'x'.repeat(300)),
    fc.string(),
    decimal,
    fc.double(),
    fc.constantFrom(null, true, false, undefined, 0, -0),
    fc.constant({ nested: [1, 'two'] }),
  )
  const keys = fc.uniqueArray(fc.constantFrom('exchange', 'close_ts', 'open', 'flag', 'a b', '"q"', '1', 'toJSON_not'), { minLength: 1, maxLength: 6 })

  test('for arrays of flat rows with one key order (property)', () => {
    fc.assert(
      fc.property(keys, fc.array(fc.array(value, { minLength: 6, maxLength: 6 }), { minLength: 1, maxLength: 30 }), (names, rows) => {
        expectSameBytes(rows.map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]]))))
      }),
      { numRuns: 3_000 },
    )
  })

  test('for arrays whose rows differ in keys, key order or kind (property)', () => {
    const row = fc.oneof(fc.dictionary(fc.constantFrom('a', 'b', 'c', '2'), value, { maxKeys: 3 }), value, fc.array(value, { maxLength: 2 }))
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        expectSameBytes(rows)
      }),
      { numRuns: 3_000 },
    )
  })

  test('for rows JSON.stringify treats specially: toJSON, class instances, holes', () => {
    class Candle {
      open = 1
    }
    expectSameBytes([{ a: 1 }, { a: 2, toJSON: () => 'x' }])
    expectSameBytes([{ a: 1, toJSON: () => ({ b: 2 }) }])
    expectSameBytes([new Candle(), new Candle()])
    expectSameBytes([{ a: 1 }, , { a: 3 }]) // eslint-disable-line no-sparse-arrays
    expectSameBytes([{ a: 1 }, Object.create({ a: 5 })])
    expectSameBytes([{ a: NaN }, { a: 1 }])
    expectSameBytes([])
    expectSameBytes({ detail: 'Not authenticated' })
    expectSameBytes(null)
  })

  test('for a row count that outgrows the reused buffer', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ exchange: 'bitstamp', close_ts: `t${i}`, open: i / 100, note: 'n'.repeat(200) }))
    expectSameBytes(rows)
  })

  test('for every page the reference service serves from the default dataset, both candle endpoints', async () => {
    const service = createMockService({ now: '2026-01-01T00:00:00Z', rateLimit: false })
    const headers = { 'x-api-key': 'demo-enterprise-key' }
    for (const { exchange, base, quote } of defaultDataset.listings) {
      for (const interval of INTERVALS) {
        for (const window of ['', '&start=2019-03-01T00:00:00Z', '&end=2022-11-10T00:00:00Z']) {
          const query = `interval=${interval}&base=${base}&quote=${quote}&limit=1000${window}`
          for (const url of [`/v1/exchange_ohlcv?exchange=${exchange}&${query}`, `/v1/aggregated_ohlcv?${query}`]) {
            expectSameBytes((await service.handle({ method: 'GET', url, headers })).body)
          }
        }
      }
    }
  })
})

describe('BytePool', () => {
  test('hands a buffer out again only after it was given back', () => {
    const pool = new BytePool()
    const a = pool.take(100)
    const b = pool.take(100)
    expect(a.buffer).not.toBe(b.buffer)
    pool.give(a)
    pool.give(a) // twice: still one free entry
    const c = pool.take(50)
    const d = pool.take(50)
    expect(c.buffer).toBe(a.buffer)
    expect(d.buffer).not.toBe(a.buffer)
  })

  test('ignores buffers it did not make, such as slices of the shared Node pool', () => {
    const pool = new BytePool()
    const foreign = Buffer.from('small strings share one ArrayBuffer')
    pool.give(foreign)
    expect(pool.take(8).buffer).not.toBe(foreign.buffer)
  })

  test('never returns a buffer smaller than asked', () => {
    const pool = new BytePool()
    pool.give(pool.take(10))
    expect(pool.take(1000).byteLength).toBeGreaterThanOrEqual(1000)
  })
})

describe('the standalone server reuses a response buffer only after its response finished', () => {
  const now = '2026-01-01T00:00:00Z'
  const headers = { 'x-api-key': 'demo-enterprise-key' }
  const pagePath = (n: number) =>
    `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000&start=${new Date(Date.UTC(2017, 0, 1) + n * 86_400_000).toISOString()}`

  /** Splits a stream of HTTP/1.1 responses framed by content-length into their bodies. */
  function bodiesOf(stream: Buffer): Buffer[] {
    const bodies: Buffer[] = []
    let at = 0
    while (at < stream.length) {
      const headEnd = stream.indexOf('\r\n\r\n', at)
      const head = stream.subarray(at, headEnd).toString('latin1')
      const length = Number(/content-length: (\d+)/i.exec(head)![1])
      bodies.push(stream.subarray(headEnd + 4, headEnd + 4 + length))
      at = headEnd + 4 + length
    }
    return bodies
  }

  test('a pipelining client that stops reading gets its own bytes while other clients are served', async () => {
    const { startMockServer } = await import('../../mocks/server/index.js')
    const { connect } = await import('node:net')
    const server = await startMockServer({ now, rateLimit: false })
    const truth = createMockService({ now, rateLimit: false })
    const expected = async (path: string) => JSON.stringify((await truth.handle({ method: 'GET', url: path, headers })).body)
    const { port } = new URL(server.url)
    try {
      // 24 pipelined requests (about 7 MB of answers) on one socket that is not read: more than the
      // kernel buffers hold, so the server keeps the rest queued in its own buffers.
      const slowPaths = Array.from({ length: 24 }, (_, i) => pagePath(i))
      const socket = connect(Number(port), '127.0.0.1')
      const received: Buffer[] = []
      socket.on('data', (c: Buffer) => received.push(c))
      socket.pause()
      socket.write(slowPaths.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${headers['x-api-key']}\r\n\r\n`).join(''))
      await new Promise((resolve) => setTimeout(resolve, 300))

      // Meanwhile other pages are encoded, each into a pooled buffer.
      const fastPaths = Array.from({ length: 16 }, (_, i) => pagePath(100 + i))
      const fastBodies = await Promise.all(fastPaths.map(async (path) => (await fetch(`${server.url}${path}`, { headers })).text()))
      for (const [i, path] of fastPaths.entries()) expect(fastBodies[i] === (await expected(path)), path).toBe(true)

      const ended = new Promise<void>((resolve) => socket.on('end', () => resolve()))
      socket.resume()
      await new Promise((resolve) => setTimeout(resolve, 200))
      socket.end()
      await ended
      const slowBodies = bodiesOf(Buffer.concat(received))
      expect(slowBodies).toHaveLength(slowPaths.length)
      for (const [i, path] of slowPaths.entries()) expect(slowBodies[i]!.toString('utf8') === (await expected(path)), path).toBe(true)
    } finally {
      await server.close()
    }
  })
})
