import { expect, test } from 'vitest'

/** The base URL of the one server every worker shares, from the parent test. */
export const ROOT = process.env.MC_URL!

const PRO = { 'X-API-Key': 'demo-pro-key' }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits until all five sessions exist on the server, so the workers provably run at the same time. */
export async function barrier(base: string): Promise<void> {
  await fetch(`${base}/v1/assets`)
  const until = Date.now() + 30_000
  while (Date.now() < until) {
    const { sessions } = await (await fetch(`${ROOT}/_mock/health`)).json()
    if (sessions >= 5) return
    await sleep(20)
  }
  throw new Error('the five session workers did not run at the same time')
}

/**
 * One worker: its own session, `calls` counted calls, one 503 fault, its own clock; it asserts its
 * exact usage, journal and faults while the others run.
 */
export function sessionSuite(name: string, calls: number, now: string): void {
  test(`session ${name}: its exact usage, journal, faults and clock, whatever the other sessions do`, async () => {
    const base = `${ROOT}/_sessions/${name}`
    const control = (method: string, path: string, body?: unknown) => fetch(`${base}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) })
    await barrier(base)
    await control('POST', '/_mock/clock', { now })
    expect((await control('POST', '/_mock/faults', { path: '/v1/exchange_ohlcv', status: 503, after: 1 })).status).toBe(201)
    const statuses: number[] = []
    const closes: string[] = []
    for (let i = 0; i < calls + 1; i++) {
      // Paced under 10 per second: this session never meets its rate limit.
      const res = await fetch(`${base}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1&i=${i}`, { headers: PRO })
      statuses.push(res.status)
      if (res.status === 200) closes.push((await res.json())[0].close_ts)
      else await res.arrayBuffer()
      await sleep(120)
    }
    expect(statuses).toEqual([200, 503, ...Array(calls - 1).fill(200)])
    expect(new Set(closes)).toEqual(new Set([now.replace('.000', '')]))
    expect(await (await control('GET', '/_mock/usage')).json()).toMatchObject({ acct_pro: calls, acct_free: 0 })
    const journal = await (await control('GET', '/_mock/requests?path=/v1/exchange_ohlcv')).json()
    expect(journal.map((r: { query: { i: string } }) => r.query.i)).toEqual(Array.from({ length: calls + 1 }, (_, i) => String(i)))
    expect(journal.filter((r: { fault: unknown }) => r.fault !== null)).toHaveLength(1)
    expect(journal.every((r: { time: { service: string } }) => r.time.service === now)).toBe(true)
    expect(await (await control('GET', '/_mock/faults')).json()).toEqual([])
  })
}
