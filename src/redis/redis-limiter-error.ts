/**
 * The Redis rate limiter could not reach a decision: Redis unreachable, too slow, refusing the
 * password, or failing a script. Its message names the account and the Redis URL with the password
 * replaced by `***`; it carries no cause (a Redis client's errors may hold the AUTH command's arguments).
 * @example
 * try { await client.exchangeOhlcv(params) } catch (e) { if (e instanceof RedisLimiterError) restartLater() }
 */
export class RedisLimiterError extends Error {
  override readonly name = 'RedisLimiterError'
}
