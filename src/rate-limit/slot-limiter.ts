/** What the service said in answer to a request: its status and headers (the `RateLimit-*` fields, `Retry-After`). */
export interface SlotAnswer {
  status: number
  headers: Headers | Record<string, string>
}

/**
 * Call when the request's response (or failure) has arrived, with the answer when there is one: the
 * limiter learns the account's state from it.
 */
export type ReleaseSlot = (answer?: SlotAnswer) => void

/**
 * What a client's `rateLimit` option accepts besides options: anything that hands out slots. The
 * package has two: {@link RateLimiter} (one process) and `createRedisRateLimiter` from
 * `market-candles/redis` (every process of an account, through Redis).
 * @example
 * const limiter: SlotLimiter = new RateLimiter({ perSecond: 10 })
 * const client = createClient({ apiKey, rateLimit: limiter })
 */
export interface SlotLimiter {
  /**
   * Waits for a slot and takes it; resolves the function to call when the request's answer has
   * arrived. Rejects when `signal` aborts, or when the limiter cannot decide (a store that fails).
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>
  /** Requests the limiter lets through per window, when it knows (for debug log lines). */
  readonly share?: number
}

/** Whether a value is a {@link SlotLimiter} (an object with an `acquire` method). */
export function isSlotLimiter(value: unknown): value is SlotLimiter {
  return typeof value === 'object' && value !== null && typeof (value as { acquire?: unknown }).acquire === 'function'
}
