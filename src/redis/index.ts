/*
 * `market-candles/redis`: the account's rate limit shared through Redis by workers in several
 * processes. Needs the optional peer dependency ioredis (`npm install ioredis`).
 */
export { createRedisRateLimiter, RedisRateLimiter } from './redis-rate-limiter.js'
export type { RedisRateLimiterOptions } from './redis-rate-limiter-options.js'
export { RedisLimiterError } from './redis-limiter-error.js'
