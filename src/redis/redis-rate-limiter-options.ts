import type { Redis } from 'ioredis'
import { checkKnownKeys } from '../internal/known-keys.js'

/** Options of {@link createRedisRateLimiter}: `url` or `client`, and `account`. */
export interface RedisRateLimiterOptions {
  /**
   * The Redis server's URL (`redis://[:password@]host:port[/db]`, `rediss://` for TLS); the limiter
   * opens its own connection and {@link RedisRateLimiter.close} closes it. Give `url` or `client`.
   * @example 'redis://:s3cret@redis.internal:6379/0'
   */
  url?: string
  /** An ioredis client to use instead of `url`; the limiter never closes it. */
  client?: Redis
  /**
   * The account whose limit the workers share: every limiter with the same `account` (and `keyPrefix`)
   * on the same Redis shares one window. Any stable name; never the API key.
   * @example 'acct-42'
   */
  account: string
  /** Requests allowed in any one-second window: the account's rate. @default 10 */
  perSecond?: number
  /** Extra milliseconds added to the one-second window against jitter; leave it out to follow the network. @default adaptive (as RateLimiter) */
  marginMs?: number
  /** How long one Redis call may take before the limiter gives up on it (connecting included). A loaded machine can hold a healthy Redis call back for seconds. @default 5000 */
  timeoutMs?: number
  /**
   * What a request does when Redis fails: `'error'` rejects it with a {@link RedisLimiterError};
   * `'fallback'` logs a warning and limits it in-process (a `RateLimiter` of `perSecond`, which
   * learns the share of the others from the service's headers) until Redis answers again.
   * @default 'error'
   */
  onRedisError?: 'error' | 'fallback'
  /** Where the fallback's warnings go. @default console */
  logger?: { warn(message: string): void }
  /** Prefix of the Redis key; the key is `${keyPrefix}${account}`. @default 'market-candles:rate-limit:' */
  keyPrefix?: string
}

/** The options `createRedisRateLimiter` knows; any other key is refused. */
const REDIS_LIMITER_OPTION_KEYS = ['url', 'client', 'account', 'perSecond', 'marginMs', 'timeoutMs', 'onRedisError', 'logger', 'keyPrefix'] as const satisfies ReadonlyArray<keyof RedisRateLimiterOptions>

/** Checks the options; throws a clear error for each bad one (never echoing the URL's password). */
export function checkRedisLimiterOptions(options: RedisRateLimiterOptions): void {
  if (options === null || typeof options !== 'object') throw new TypeError('createRedisRateLimiter options must be an object')
  checkKnownKeys('createRedisRateLimiter', options, REDIS_LIMITER_OPTION_KEYS)
  const { url, client, account } = options
  if ((url === undefined) === (client === undefined)) throw new TypeError('createRedisRateLimiter needs exactly one of url and client')
  if (url !== undefined && (typeof url !== 'string' || !URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol))) {
    throw new TypeError('url must be a redis:// or rediss:// URL, e.g. redis://:password@host:6379')
  }
  if (client !== undefined && (client === null || typeof (client as { evalsha?: unknown }).evalsha !== 'function')) throw new TypeError('client must be an ioredis client')
  if (typeof account !== 'string' || account.trim() === '') throw new TypeError('account must be a non-empty string naming the account the workers share')
  const perSecond = options.perSecond ?? 10
  if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`perSecond must be a positive integer, got ${perSecond}`)
  const timeoutMs = options.timeoutMs ?? 5000
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new RangeError(`timeoutMs must be a positive integer of milliseconds, got ${timeoutMs}`)
  if (options.onRedisError !== undefined && options.onRedisError !== 'error' && options.onRedisError !== 'fallback') {
    throw new TypeError(`onRedisError must be 'error' or 'fallback', got ${JSON.stringify(options.onRedisError)}`)
  }
  if (options.logger !== undefined && typeof options.logger?.warn !== 'function') throw new TypeError('logger must have a warn method')
  if (options.keyPrefix !== undefined && typeof options.keyPrefix !== 'string') throw new TypeError('keyPrefix must be a string')
}
