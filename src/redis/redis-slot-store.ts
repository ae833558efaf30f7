import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { WindowSlot, WindowState } from '../rate-limit/slot-window.js'
import { COMPLETE, PAUSE, PEEK, RENEW, TAKE } from './redis-scripts.js'

/** A slot as Redis keeps it. */
export interface RedisSlot extends WindowSlot {
  readonly id: string
}

/** The window as Redis had it at `now` (Redis's clock), and the version to take a slot against. */
export interface RedisSnapshot extends WindowState<RedisSlot> {
  readonly now: number
  readonly version: number
  /** Slots taken so far: a take moves no other slot, so a decision can allow for takes since. */
  readonly takes: number
  /** Whether the key existed (false: never used, idle for the ttl, or lost with a Redis restart). */
  readonly found: boolean
}

/** How long an account's state outlives its last change: far longer than any window. */
const TTL_MS = 60_000

interface Script {
  readonly lua: string
  readonly sha: string
}
const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') })
const SCRIPTS = { peek: script(PEEK), take: script(TAKE), complete: script(COMPLETE), pause: script(PAUSE), renew: script(RENEW) }

/**
 * The slots of one account in Redis: each change is one script, so it is atomic; the policy (what
 * may leave when) stays in TypeScript, shared with the in-process limiter. A slot is taken with a
 * compare-and-set on the state's version: a worker decides on what it read, and takes only if
 * nothing that could delay a request changed meanwhile.
 */
export class RedisSlotStore {
  readonly #redis: Redis
  readonly #key: string

  constructor(redis: Redis, key: string) {
    this.#redis = redis
    this.#key = key
  }

  // EVALSHA, loading the script on the first NOSCRIPT (after a restart or SCRIPT FLUSH).
  async #run(s: Script, args: Array<string | number>): Promise<unknown> {
    try {
      return await this.#redis.evalsha(s.sha, 1, this.#key, ...args)
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
      return this.#redis.eval(s.lua, 1, this.#key, ...args)
    }
  }

  async peek(): Promise<RedisSnapshot> {
    const [now, raw] = (await this.#run(SCRIPTS.peek, [])) as [string, string]
    return parseState(Number(now), raw)
  }

  /**
   * Takes a slot if the state is still at `snapshot`'s version and Redis's clock has reached
   * `times[k]`, k the takes by others since the snapshot: resolves when it was taken (Redis
   * time), or else the state as it is now, to decide again.
   */
  async take(snapshot: RedisSnapshot, times: readonly number[], id: string, cold: boolean, leaseMs: number, keep: number): Promise<{ sent: number } | { snapshot: RedisSnapshot }> {
    const [ok, now, raw] = (await this.#run(SCRIPTS.take, [snapshot.version, snapshot.takes, id, cold ? 1 : 0, leaseMs, keep, TTL_MS, ...times])) as [number, string, string?]
    return ok === 1 ? { sent: Number(now) } : { snapshot: parseState(Number(now), raw ?? '') }
  }

  /** Marks a slot answered at `at` (Redis's clock), after a round trip of `roundTripMs`. */
  async complete(id: string, roundTripMs: number, at: number): Promise<void> {
    await this.#run(SCRIPTS.complete, [id, roundTripMs, TTL_MS, at])
  }

  async pause(ms: number): Promise<void> {
    await this.#run(SCRIPTS.pause, [Math.ceil(ms), TTL_MS])
  }

  async renew(ids: readonly string[], leaseMs: number): Promise<void> {
    if (ids.length > 0) await this.#run(SCRIPTS.renew, [leaseMs, TTL_MS, ...ids])
  }
}

function parseState(now: number, raw: string): RedisSnapshot {
  if (raw === '') return { now, version: 0, takes: 0, found: false, slots: [], minRoundTrip: Infinity, pausedUntil: 0 }
  const st = JSON.parse(raw) as { v: number; t?: number; s: unknown; rt: number; rq?: number; p: number }
  // cjson writes an empty array as {}.
  const rows = Array.isArray(st.s) ? (st.s as Array<[string, number, number, number, number]>) : []
  const slots = rows.map(([id, sent, cold, completed, leaseUntil]): RedisSlot => ({
    id,
    sent,
    cold: cold === 1,
    ...(completed >= 0 ? { completed } : {}),
    leaseUntil,
  }))
  const least = [st.rt, st.rq ?? -1].filter((rt) => rt >= 0)
  return { now, version: st.v, takes: st.t ?? 0, found: true, slots, minRoundTrip: least.length === 0 ? Infinity : Math.min(...least), pausedUntil: st.p }
}
