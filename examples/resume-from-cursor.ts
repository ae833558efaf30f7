// Interrupting a walk and resuming it from its JSON cursor, with no gap and no duplicate. Run: npx tsx examples/resume-from-cursor.ts
import { APIUserAbortError, createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
try {
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url })
  const range = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', start: '2026-04-01T00:00:00Z', end: '2026-04-21T00:00:00Z', limit: 100 } as const

  // The reference: the whole range in one uninterrupted walk.
  const expected: string[] = []
  for await (const c of client.exchangeOhlcvCandles(range)) expected.push(c.close_ts)
  console.log(`uninterrupted walk: ${expected.length} candles, ${expected[0]} .. ${expected.at(-1)}`)

  const check = (label: string, got: string[]) => {
    const duplicates = got.length - new Set(got).size
    const same = got.length === expected.length && got.every((ts, i) => ts === expected[i])
    console.log(`${label}: ${got.length} candles, duplicates ${duplicates}, identical to the uninterrupted walk: ${same}`)
    if (!same) process.exitCode = 1
  }

  // 1. Candle by candle, stopped with maxItems in the middle of a page (250 of pages of 100).
  const got: string[] = []
  const first = client.exchangeOhlcvCandles(range, { maxItems: 250 })
  for await (const c of first) got.push(c.close_ts)
  const saved = JSON.stringify(first.cursor) // plain JSON: store it in a file, a database, a queue...
  console.log(`stopped after ${got.length} candles (last ${got.at(-1)}); saved cursor: ${saved}`)
  for await (const c of client.resumeCandles(JSON.parse(saved))) got.push(c.close_ts)
  check('maxItems + resumeCandles', got)

  // 2. Page by page, aborted with an AbortController after 3 pages.
  const pagesGot: string[] = []
  const controller = new AbortController()
  const pages = client.exchangeOhlcvPages(range, { signal: controller.signal })
  let count = 0
  try {
    for await (const page of pages) {
      pagesGot.push(...page.candles.map((c) => c.close_ts))
      if (++count === 3) controller.abort(new Error('interrupted on purpose'))
    }
  } catch (error) {
    if (!(error instanceof APIUserAbortError)) throw error
    console.log(`aborted after ${count} pages (${pagesGot.length} candles): ${error.name}`)
  }
  const savedPages = JSON.stringify(pages.cursor)
  console.log(`saved cursor: start=${pages.cursor?.query.start}`)
  for await (const page of client.resumePages(JSON.parse(savedPages))) pagesGot.push(...page.candles.map((c) => c.close_ts))
  check('AbortController + resumePages', pagesGot)
} finally {
  await server.close()
}
