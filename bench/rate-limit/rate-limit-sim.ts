/*
 * N uncoordinated RateLimiters (the SDK's own class) walking against a simulated sliding-window
 * service (10 per second, 429s not counted), in virtual time: the limiter's behaviour without the
 * shared machine's noise, for tuning (bench 3d measures the real thing). Each client keeps 8
 * requests in flight, retries a 429 after its Retry-After (+ up to 25 %) or the SDK's backoff.
 *
 *   npx tsx bench/rate-limit/rate-limit-sim.ts [all|retry-after|none] [clients] [pages in all] [seeds]
 *
 * Each seed also starts at its own time of the wall clock (seed x 1 s), as trial turns of limiters
 * without headers begin at multiples of 8 s of it (src/rate-limit/trial-turns.ts). test/sdk/
 * uncoordinated-fairness.test.ts imports `simulate`.
 *
 * JIT=ms adds up to that much random delay to each answer (event-loop lag of a loaded machine);
 * START=ms spreads the clients' starts over that many ms (default 5); COLD=ms delays the requests a
 * client sends before its first answer (new connections) by that much, +-20 %; TRACE=seed prints that run's
 * answers with every limiter's share; MID=1 prints each run's steady rate, from 2 s after the start
 * until the first client is done (all clients walking: what the sharing itself costs, without the
 * start and the end); UNEVEN=1 splits the pages 1 : 2 : ... : N between the clients instead of
 * evenly (clients that leave one after another: what learning of a departure costs).
 */
import { seededRandom } from '../../mocks/core/faults/seeded-random.js'
import { RateLimiter } from '../../src/rate-limit/rate-limiter.js'

type Variant = 'all' | 'retry-after' | 'none'

export async function simulate(variant: Variant, clients: number, totalPages: number, seed: number, latency = 100, startAt = seed * 1000) {
  const random = seededRandom(seed)
  let now = startAt
  const events: Array<{ at: number; run: () => void | Promise<void> }> = []
  const at = (t: number, run: () => void | Promise<void>) => {
    events.push({ at: t, run })
  }
  const accepted: number[] = []
  const stats = { ok: 0, limited: 0, first: Infinity, last: 0 }
  const perClient: number[] = []
  /** When each client's last page was answered, in ms from the start. */
  const finishedAt: number[] = []
  /** When each 200 came, for MID. */
  const okAt: number[] = []
  const service = (): { status: number; headers: Record<string, string> } => {
    while (accepted.length > 0 && accepted[0]! <= now - 1000) accepted.shift()
    if (accepted.length >= 10) {
      const retry = Math.max(1, Math.ceil((accepted[0]! + 1000 - now) / 1000))
      const headers: Record<string, string> = variant === 'none' ? {} : { 'retry-after': String(retry) }
      if (variant === 'all') Object.assign(headers, { 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': String(retry) })
      return { status: 429, headers }
    }
    accepted.push(now)
    const headers: Record<string, string> = variant === 'all' ? { 'ratelimit-limit': '10', 'ratelimit-remaining': String(10 - accepted.length), 'ratelimit-reset': '1' } : {}
    return { status: 200, headers }
  }
  const pumps: Array<() => Promise<void>> = []
  const limiters: RateLimiter[] = []
  const trace = process.env.TRACE === String(seed)
  const log: string[] = []
  for (let c = 0; c < clients; c++) {
    const limiter = new RateLimiter({ now: () => now, random })
    limiters.push(limiter)
    let toStart = process.env.UNEVEN ? Math.floor((2 * totalPages * (c + 1)) / (clients * (clients + 1))) : Math.floor(totalPages / clients)
    const retries: Array<{ page: number; n: number }> = []
    let inFlight = 0
    let answered = false
    let wakeAt = Infinity
    perClient.push(0)
    const pump = async (): Promise<void> => {
      for (;;) {
        if (inFlight >= 8 || (toStart === 0 && retries.length === 0)) return
        const d = limiter.delay()
        if (d > 0) {
          if (d !== Infinity && now + d < wakeAt) {
            wakeAt = now + d
            at(now + d, () => {
              wakeAt = Infinity
              return pump()
            })
          }
          return
        }
        const job = retries.shift() ?? { page: toStart--, n: 0 }
        const release = await limiter.acquire()
        inFlight++
        stats.first = Math.min(stats.first, now)
        // Requests sent before the client's first answer travel on new connections: COLD ms more, +-20 %.
        const cold = answered ? 0 : Number(process.env.COLD ?? 0) * (0.8 + 0.4 * random())
        const out = 0.3 + random() * 1.2 + cold / 2
        at(now + out, () => {
          const answer = service()
          at(now + latency + cold / 2 + 0.3 + random() * 0.7 + random() * random() * Number(process.env.JIT ?? 4), () => {
            answered = true
            inFlight--
            release(answer)
            stats.last = Math.max(stats.last, now)
            if (trace) log.push(`${(now / 1000).toFixed(2)} c${c} ${answer.status} shares ${limiters.map((l) => l.share).join(',')} ok ${stats.ok} 429 ${stats.limited}`)
            if (answer.status === 200) {
              stats.ok++
              perClient[c]!++
              finishedAt[c] = now - startAt
              okAt.push(now)
            } else {
              stats.limited++
              job.n++
              const ra = answer.headers['retry-after']
              const step = Math.min(8000, 500 * 2 ** (job.n - 1))
              const base = ra !== undefined ? Number(ra) * 1000 : step / 2 + (random() * step) / 2
              at(now + base * (1 + 0.25 * random()), () => {
                retries.push(job)
                return pump()
              })
            }
            return pump()
          })
        })
      }
    }
    pumps.push(pump)
  }
  // Clients start within a few ms of each other.
  for (const pump of pumps) at(startAt + random() * Number(process.env.START ?? 5), pump)
  while (events.length > 0) {
    events.sort((a, b) => a.at - b.at)
    const e = events.shift()!
    now = Math.max(now, e.at)
    await e.run()
    if (now > startAt + 600_000) throw new Error('runaway')
  }
  if (trace) console.log(log.join('\n'))
  const span = stats.last - stats.first
  if (process.env.MID) {
    const from = stats.first + 2000
    const to = Math.min(...finishedAt) + startAt
    const mid = okAt.filter((t) => t >= from && t <= to).length
    console.log(`seed ${seed}: steady ${((mid * 1000) / (to - from)).toFixed(2)}/s until the first client was done, ${((to - stats.first) / 1000).toFixed(1)} s of ${(span / 1000).toFixed(1)}`)
  }
  return { rate: (stats.ok * 1000) / span, limited: stats.limited, share429: stats.limited / (stats.ok + stats.limited), perClient, finishedAt }
}

// Run from the command line (not when a test imports simulate).
if (import.meta.url === `file://${process.argv[1]}`) {
  const [variant = 'retry-after', n = '2', pages = '240', seeds = '5'] = process.argv.slice(2)
  const rows = []
  for (let s = 1; s <= Number(seeds); s++) rows.push(await simulate(variant as Variant, Number(n), Number(pages), s))
  const secs = (ms: number) => (ms / 1000).toFixed(1)
  for (const r of rows) console.log(`${variant} x${n}: ${r.rate.toFixed(2)}/s, ${r.limited} x 429 (${(r.share429 * 100).toFixed(1)} %), per client ${r.perClient.join(' ')}, done at ${r.finishedAt.map(secs).join(' ')} s`)
  const sorted = rows.map((r) => r.rate).sort((a, b) => a - b)
  console.log(`median ${sorted[sorted.length >> 1]!.toFixed(2)}, 429 median ${rows.map((r) => r.share429 * 100).sort((a, b) => a - b)[rows.length >> 1]!.toFixed(1)} %`)
}
