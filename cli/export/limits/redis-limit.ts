import { createHash } from 'node:crypto'
import type { SlotLimiter } from '../../../src/index.js'
import { redactRedisUrl } from '../../../src/redis/redis-url.js'
import { UsageError } from '../../usage-error.js'

/** The environment variable of `--redis`. */
export const REDIS_URL_ENV = 'MARKET_CANDLES_REDIS_URL'
/** Names the account the export processes share in Redis; by default derived from the service URL and the API key. */
export const REDIS_ACCOUNT_ENV = 'MARKET_CANDLES_REDIS_ACCOUNT'

/** A limiter shared through Redis, for the export's client; `close` ends its connection. */
export interface SharedLimit {
  limiter: SlotLimiter & { close(): Promise<void> }
  /** How progress names it: the URL with its password replaced by `***`, and the account. */
  label: string
}

/**
 * The account's name in Redis: given, or a hash of the service URL and the API key (never the key
 * itself), so every process exporting with the same key against the same service shares one window.
 * Processes with different keys of one account set MARKET_CANDLES_REDIS_ACCOUNT to one name.
 */
export function redisAccount(env: NodeJS.ProcessEnv, baseUrl: string, apiKey: string): string {
  const given = env[REDIS_ACCOUNT_ENV]?.trim()
  if (given) return given
  return `export-${createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex').slice(0, 16)}`
}

/** Checks a `--redis` URL without echoing it (it may hold a password). */
export function checkRedisUrl(url: string, from: string): void {
  if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol)) {
    throw new UsageError(`${from} must be a redis:// or rediss:// URL (redis://[:password@]host:port[/db]), got ${redactRedisUrl(url)}`)
  }
}

/**
 * Opens the Redis limiter (market-candles/redis, loaded only here: ioredis is an optional peer).
 * Throws an Error with a clear message when ioredis is not installed.
 */
export async function openSharedLimit(url: string, account: string, perSecond: number): Promise<SharedLimit> {
  let redis: typeof import('../../../src/redis/index.js')
  try {
    redis = await import('../../../src/redis/index.js')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /ioredis/.test(String((error as Error).message))) {
      throw new Error('--redis needs the ioredis package beside market-candles: npm install ioredis')
    }
    throw error
  }
  const limiter = redis.createRedisRateLimiter({ url, account, perSecond })
  return { limiter, label: `${redactRedisUrl(url)} (account ${account})` }
}

/** The command line with any `--redis` URL's password replaced by `***`, fit to print. */
export function redactRedisArgs(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (argv[i - 1] === '--redis') return redactRedisUrl(arg)
    if (arg.startsWith('--redis=')) return `--redis=${redactRedisUrl(arg.slice('--redis='.length))}`
    return arg
  })
}
