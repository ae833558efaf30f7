import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { json } from '../core/message/respond.js'
import type { MockResponse } from '../core/message/types.js'

/**
 * The environment variable `serve` reads the control token from when `--control-token` is not given.
 *
 * @example
 * // MARKET_CANDLES_CONTROL_TOKEN=s3cret npx market-candles serve
 * await fetch(`${url}/_mock/usage`, { headers: { Authorization: `Bearer ${process.env[CONTROL_TOKEN_ENV]}` } })
 */
export const CONTROL_TOKEN_ENV = 'MARKET_CANDLES_CONTROL_TOKEN'

// Digests of equal length: timingSafeEqual then takes the same time whatever the lengths and bytes.
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/**
 * A check of `Authorization: Bearer TOKEN` against one token, in constant time. The token is kept
 * only as its digest, so it cannot leak into an answer, a log line or an error.
 */
export function controlTokenCheck(token: string): (headers: IncomingHttpHeaders | undefined) => boolean {
  if (typeof token !== 'string' || token === '') throw new TypeError('controlToken must be a non-empty string')
  const expected = digest(token)
  return (headers) => {
    const header = headers?.authorization
    const given = typeof header === 'string' && /^Bearer /i.test(header) ? header.slice(7).trim() : ''
    // Always compared, even when absent: the time says nothing about what was sent.
    return timingSafeEqual(digest(given), expected) && given !== ''
  }
}

/** The answer of a `/_mock` request without the right token; it names the header, never the token. */
export const UNAUTHORIZED: MockResponse = json(
  401,
  { detail: 'The /_mock endpoints of this server are locked: send the control token as `Authorization: Bearer <token>`' },
  { 'www-authenticate': 'Bearer realm="market-candles control plane"' },
)

/** True for an address only this machine reaches: 127.0.0.0/8, ::1, `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || /^::ffff:127\./.test(bare)
}
