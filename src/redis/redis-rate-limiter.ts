import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { abortable, sleep, throwIfAborted } from '../internal/abort.js'
import { answerHeader as header } from '../rate-limit/answer-header.js'
import { RateLimiter } from '../rate-limit/rate-limiter.js'
import type { ReleaseSlot, SlotLimiter } from '../rate-limit/slot-limiter.js'
import { nextFreeTimes } from '../rate-limit/slot-window.js'
import { IDLE_MS, WindowLength } from '../rate-limit/window-length.js'
import { RedisLimiterError } from './redis-limiter-error.js'
import { checkRedisLimiterOptions, type RedisRateLimiterOptions } from './redis-rate-limiter-options.js'
import { RedisSlotStore, type RedisSnapshot } from './redis-slot-store.js'
import { redactRedisUrl, redisUrlSecrets, scrub } from './redis-url.js'

/** A slot in flight is held this long past its last renewal: a worker that died frees its slots after it (plus a window). */
const LEASE_MS = 3000
/** Workers renew the leases of their slots in flight this often. */
const RENEW_MS = 1000
/** While the window waits for a request in flight (another worker's), look again this often. */
const POLL_MS = 20
/** After falling back, try Redis again this long later. */
const RETRY_REDIS_MS = 5000

/**
 * A rate limiter whose window lives in Redis, shared by every process (on any machine) of one
 * account: at most `perSecond` requests reach the service in any one-second window, with the same
 * policy as {@link RateLimiter} (a slot held until one second after the request's latest plausible
 * arrival). Redis's clock is the only clock, so machines whose clocks disagree share one window. A
 * 429 seen by any worker pauses every worker until its `Retry-After`; a worker that dies holding
 * slots frees them within a few seconds (their leases lapse).
 *
 * Create it with {@link createRedisRateLimiter}; pass it as a client's `rateLimit`.
 */
export class RedisRateLimiter implements SlotLimiter {
  readonly perSecond: number
  readonly account: string
  readonly #store: RedisSlotStore
  readonly #redis: Redis
  readonly #ownsClient: boolean
  readonly #window: WindowLength
  readonly #timeoutMs: number
  readonly #where: string
  readonly #secrets: string[]
  readonly #fallbackMode: boolean
  readonly #logger: { warn(message: string): void }
  #fallback: RateLimiter | undefined
  #retryRedisAt = 0
  #lastRedisError: string | undefined
  #queue: Promise<void> = Promise.resolve()
  /**
   * The most requests this process had in flight at once since start or its last idle spell: a
   * client keeps that many connections open, so with fewer in flight the next request reuses one.
   */
  #peakInFlight = 0
  /** When this process last took a slot: Redis's clock, and its own (for cold connections). */
  #lastTaken = -Infinity
  #lastLocalTake = -Infinity
  #sawState = false
  readonly #inFlight = new Set<string>()
  #renewTimer: ReturnType<typeof setInterval> | undefined
  #closed = false
  #roundTrips = 0
  readonly #onRedisError = (error: Error) => (this.#lastRedisError = scrub(error.message, this.#secrets))

  constructor(options: RedisRateLimiterOptions) {
    checkRedisLimiterOptions(options)
    this.perSecond = options.perSecond ?? 10
    this.account = options.account
    this.#window = new WindowLength(options.marginMs)
    this.#timeoutMs = options.timeoutMs ?? 5000
    this.#fallbackMode = options.onRedisError === 'fallback'
    this.#logger = options.logger ?? console
    this.#secrets = redisUrlSecrets(options.url)
    this.#where = options.url !== undefined ? redactRedisUrl(options.url) : 'the given Redis client'
    if (options.client !== undefined) {
      this.#redis = options.client
      this.#ownsClient = false
    } else {
      this.#redis = new Redis(options.url!, {
        // Every call bounded: connecting, a paused or unreachable server, a command never answered.
        connectTimeout: this.#timeoutMs,
        commandTimeout: this.#timeoutMs,
        maxRetriesPerRequest: 1,
        // Reconnect for as long as the limiter lives: a restarted Redis is used again.
        retryStrategy: (times) => Math.min(50 * times, 1000),
        lazyConnect: false,
      })
      this.#ownsClient = true
    }
    // Without a listener a Redis client prints its connection errors itself; keep the last, scrubbed, for our message.
    this.#redis.on('error', this.#onRedisError)
    this.#store = new RedisSlotStore(this.#redis, `${options.keyPrefix ?? 'market-candles:rate-limit:'}${this.account}`)
  }

  /** The window a slot is held for, in milliseconds. */
  get windowMs(): number {
    return this.#window.ms
  }

  /** Redis calls made so far (each one round trip): the limiter's cost, with the requests it let through. */
  get roundTrips(): number {
    return this.#roundTrips
  }

  /** Requests per window: the account's whole rate, which Redis shares between the workers. */
  get share(): number {
    return this.perSecond
  }

  /**
   * Waits for a slot of the account's window and takes it; call the returned function when the
   * response arrives. This process's callers are served in arrival order. Rejects with a
   * {@link RedisLimiterError} when Redis fails (unless `onRedisError: 'fallback'`), within
   * `timeoutMs` of the failing call.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    const turn = this.#queue.then(() => this.#acquire(signal))
    this.#queue = turn.then(() => {}, () => {})
    return turn
  }

  async #acquire(signal: AbortSignal | undefined): Promise<ReleaseSlot> {
    if (this.#closed) throw new RedisLimiterError(`${this.#what()}: the limiter is closed`)
    if (this.#fallback && performance.now() < this.#retryRedisAt) return this.#fallback.acquire(signal)
    try {
      // The fallback's requests of the last second are not in Redis: hold every worker back one window first.
      if (this.#fallback) await this.#call(this.#store.pause(this.windowMs), signal)
      const release = await this.#acquireFromRedis(signal)
      if (this.#fallback) {
        this.#fallback = undefined
        this.#logger.warn(`market-candles: ${this.#what()}: Redis answers again; the account's limit is shared again`)
      }
      return release
    } catch (error) {
      if (!(error instanceof RedisLimiterError) || !this.#fallbackMode || this.#closed) throw error
      this.#fallback ??= new RateLimiter({ perSecond: this.perSecond })
      this.#retryRedisAt = performance.now() + RETRY_REDIS_MS
      this.#logger.warn(`market-candles: ${error.message}; limiting this process alone (from the service's RateLimit headers) until Redis answers again`)
      return this.#fallback.acquire(signal)
    }
  }

  async #acquireFromRedis(signal: AbortSignal | undefined): Promise<ReleaseSlot> {
    let snapshot = await this.#call(this.#store.peek(), signal)
    for (;;) {
      throwIfAborted(signal)
      if (!snapshot.found && this.#sawState && snapshot.now - this.#lastTaken < this.windowMs) {
        // The state vanished while requests were recent (Redis restarted without persistence): the
        // service still counts them, so hold everyone back one window instead of opening it whole.
        this.#sawState = false
        await this.#call(this.#store.pause(this.windowMs), signal)
        snapshot = await this.#call(this.#store.peek(), signal)
        continue
      }
      // When this and the next takes may happen, by the shared policy: other workers may take
      // slots while this one sleeps, and its take then counts on the later time (no new look needed).
      const warmKnown = hasWarmAnswer(snapshot)
      const times = nextFreeTimes(warmKnown ? countColdAsWarm(snapshot) : snapshot, this.perSecond, this.windowMs, snapshot.now)
      if (times.length === 0) {
        await sleep(POLL_MS, signal)
        snapshot = await this.#call(this.#store.peek(), signal)
        continue
      }
      const wait = Math.max(0, times[0]! - snapshot.now)
      if (wait > 0) await sleep(wait, signal)
      const id = randomUUID()
      const localNow = performance.now()
      // A slot counts from its answer (cold) only while the account's smallest round trip may be
      // a cold one, too large: a request that opens a connection (every one this process opened,
      // since start or an idle spell, is busy) while no warm request's answer is in the window.
      // Once one is, a new connection's slow outbound trip is in its round trip too, so the usual
      // estimate holds. Counting each worker's first window cold cost a round trip per slot: most
      // of the slots of 8 short-lived workers (docs/workers.md, Measured).
      if (localNow - this.#lastLocalTake > IDLE_MS) this.#peakInFlight = 0
      const reused = this.#inFlight.size < this.#peakInFlight
      const cold = !reused && !warmKnown
      const taken = await this.#call(this.#store.take(snapshot, times, id, cold, LEASE_MS, this.perSecond), signal)
      if ('snapshot' in taken) {
        snapshot = taken.snapshot
        continue
      }
      this.#lastLocalTake = localNow
      this.#lastTaken = taken.sent
      this.#sawState = true
      return this.#holding(id, reused, taken.sent, localNow)
    }
  }

  // `sent` is Redis's clock when the slot was taken, `asked` this process's clock just before it asked;
  // only round trips on a reused connection tell the margin about the network (no connection set-up in them).
  #holding(id: string, reused: boolean, sent: number, asked: number): ReleaseSlot {
    const started = performance.now()
    this.#inFlight.add(id)
    this.#peakInFlight = Math.max(this.#peakInFlight, this.#inFlight.size)
    this.#renewTimer ??= setInterval(() => this.#renew(), RENEW_MS).unref()
    let done = false
    return (answer) => {
      if (done) return
      done = true
      const roundTrip = performance.now() - started
      if (reused) this.#window.sample(roundTrip)
      this.#inFlight.delete(id)
      if (this.#inFlight.size === 0) this.#stopRenewing()
      // The answer is already in: a failing Redis here only means the slot's lease lapses on its own.
      // Answered at most this long after Redis took the slot, however late this process ran: never early.
      this.#background(this.#store.complete(id, roundTrip, sent + (performance.now() - asked)))
      if (answer?.status === 429) {
        const seconds = header(answer.headers, 'retry-after') ?? header(answer.headers, 'ratelimit-reset')
        this.#background(this.#store.pause(seconds !== undefined ? seconds * 1000 : this.windowMs))
      }
    }
  }

  #renew(): void {
    if (this.#inFlight.size > 0) this.#background(this.#store.renew([...this.#inFlight], LEASE_MS))
  }

  #stopRenewing(): void {
    clearInterval(this.#renewTimer)
    this.#renewTimer = undefined
  }

  #background(call: Promise<void>): void {
    this.#roundTrips++
    call.catch((error: unknown) => (this.#lastRedisError = scrub(error instanceof Error ? error.message : String(error), this.#secrets)))
  }

  /** One Redis call, bounded by `timeoutMs` whatever the client's own settings, its failure made a clear error. */
  async #call<T>(call: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    this.#roundTrips++
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisLimiterError(`${this.#what()}: Redis did not answer within ${this.#timeoutMs} ms${this.#lastErrorNote()}`)), this.#timeoutMs)
    })
    call.catch(() => {}) // settled by the race below, or ignored after a timeout
    try {
      return await abortable(Promise.race([call, timeout]), signal)
    } catch (error) {
      if (error instanceof RedisLimiterError || (error instanceof Error && error.name === 'APIUserAbortError')) throw error
      const message = scrub(error instanceof Error ? error.message : String(error), this.#secrets)
      // A refused password shows as a lost connection on the command: say what the connection met.
      const last = this.#lastRedisError
      if (last !== undefined && CREDENTIALS.test(last)) throw new RedisLimiterError(`${this.#what()}: ${describe(last)}`)
      throw new RedisLimiterError(`${this.#what()}: ${describe(message, this.#timeoutMs)}${this.#lastErrorNote()}`)
    } finally {
      clearTimeout(timer)
    }
  }

  #what(): string {
    return `Redis rate limiter of account ${JSON.stringify(this.account)} at ${this.#where}`
  }

  #lastErrorNote(): string {
    return this.#lastRedisError === undefined ? '' : ` (last connection error: ${describe(this.#lastRedisError)})`
  }

  /** Stops renewing leases and closes the Redis connection the limiter opened (a given `client` stays open). */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#stopRenewing()
    this.#redis.off('error', this.#onRedisError)
    if (!this.#ownsClient) return
    try {
      await this.#redis.quit()
    } catch {
      this.#redis.disconnect()
    }
  }
}

/**
 * Whether a request on a reused connection (or taken once one was answered) has been answered: the
 * account's smallest round trip is then a warm one, which every later estimate may use.
 */
function hasWarmAnswer(snapshot: RedisSnapshot): boolean {
  return snapshot.slots.some((slot) => !slot.cold && slot.completed !== undefined)
}

// Once the smallest round trip is a warm one, a cold slot's estimate holds too: the slow outbound
// trip of its new connection is part of its round trip, so completion less the smallest round trip
// still does not precede its arrival. Only ever frees slots earlier: no change other workers must see.
function countColdAsWarm(snapshot: RedisSnapshot): RedisSnapshot {
  return { ...snapshot, slots: snapshot.slots.map((slot) => (slot.cold ? { ...slot, cold: false } : slot)) }
}

// What a Redis client's message means to someone running workers.
const CREDENTIALS = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i

function describe(message: string, timeoutMs?: number): string {
  if (CREDENTIALS.test(message)) return `Redis refused the credentials (${message})`
  if (/ECONNREFUSED/.test(message)) return `nothing listens there (${message})`
  if (/max retries per request|Connection is closed|ECONNRESET|EPIPE/i.test(message)) return `the connection to Redis is lost (${message})`
  if (/Command timed out/i.test(message)) return `Redis did not answer within ${timeoutMs} ms (${message})`
  return message
}

/**
 * A rate limiter shared through Redis by every worker of one account, on any number of machines.
 * Pass it as the `rateLimit` of each worker's clients; call `close()` when done.
 * @example
 * import { createClient } from 'market-candles'
 * import { createRedisRateLimiter } from 'market-candles/redis'
 * const rateLimit = createRedisRateLimiter({ url: process.env.REDIS_URL, account: 'acct-42' })
 * const client = createClient({ apiKey, rateLimit })
 * // ... walks, concurrent windows: every worker together stays within 10 requests/s
 * await rateLimit.close()
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  return new RedisRateLimiter(options)
}
