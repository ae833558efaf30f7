import { fail } from '../message/respond.js'
import type { MockResponse } from '../message/types.js'

/** The path prefix of a session: `/_sessions/NAME/...` is the service as seen by session NAME. */
export const SESSION_PREFIX = '/_sessions/'

/** What a session name may hold, so it reads the same in a URL, a log line and a file name. */
const SESSION_NAME = /^[A-Za-z0-9._~-]{1,64}$/

/** The most sessions one service keeps; past it a new name is refused until a reset drops them. */
export const MAX_SESSIONS = 1000

/**
 * Splits `/_sessions/NAME/rest?query` into the session's name and the URL inside it (`/rest?query`),
 * or a 404 for a name that is not one. Undefined for a URL outside every session.
 */
export function splitSessionUrl(url: string): { name: string; rest: string } | MockResponse | undefined {
  if (!url.startsWith(SESSION_PREFIX)) return undefined
  const tail = url.slice(SESSION_PREFIX.length)
  const end = tail.search(/[/?]/)
  const name = end < 0 ? tail : tail.slice(0, end)
  const rest = end < 0 ? '/' : tail[end] === '?' ? `/${tail.slice(end)}` : tail.slice(end)
  if (!SESSION_NAME.test(name)) {
    return fail(404, `Invalid session name '${name.slice(0, 80)}': use 1 to 64 letters, digits, '.', '_', '~' or '-' (${SESSION_PREFIX}NAME/...)`)
  }
  return { name, rest }
}

/** The answer once {@link MAX_SESSIONS} sessions exist. */
export const tooManySessions = (): MockResponse =>
  fail(503, `Too many sessions (${MAX_SESSIONS}); POST /_mock/reset on the server's root drops them all`)
