/** What the message about a PostgreSQL failure may draw on: never the password. */
export interface PostgresErrorContext {
  /** The target without its password. */
  shown: string
  user: string | undefined
  /** `connecting`, `writing`... */
  doing: string
}

// The system error code (ECONNREFUSED, ENOTFOUND...) somewhere in a cause chain.
function systemCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Object && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code
    const errors = (e as { errors?: unknown }).errors
    if (Array.isArray(errors) && errors.length > 0) return systemCode(errors[0])
  }
  return undefined
}

/**
 * One clear sentence for a PostgreSQL failure: unreachable, authentication refused, the connection
 * lost, or the server's own message with its SQLSTATE. pg's messages never hold the password.
 */
export function describePostgresError(error: unknown, ctx: PostgresErrorContext): string {
  const e = error as { code?: string; message?: string }
  const message = e?.message ?? String(error)
  const sys = systemCode(error)
  const at = `PostgreSQL at ${ctx.shown}`
  const lost = 'the pages committed before it are stored; run the same command again to continue after them'
  if (ctx.doing === 'connecting') {
    if (sys !== undefined) return `cannot connect to ${at} (${sys}): is the server running and reachable?`
    if (/timeout/i.test(message)) return `cannot connect to ${at}: no answer within 15 s`
    if (e.code === '28P01' || e.code === '28000') {
      return `${at} refused ${ctx.user === undefined ? 'the login' : `user ${ctx.user}`} (${e.code} ${message}). Check the password in the URL, PGPASSWORD or ~/.pgpass`
    }
    if (/password/i.test(message)) return `${at} asks for a password and none was given: set PGPASSWORD, use ~/.pgpass, or put it in the URL`
    if (e.code === '3D000') return `${at}: ${message}; create it first (createdb)`
  }
  if (sys !== undefined || /terminat|Connection terminated|connection.*(lost|closed|ended)/i.test(message) || (e.code !== undefined && /^(57P0[123]|08...)$/.test(e.code))) {
    return `the connection to ${at} was lost while ${ctx.doing} (${e.code ?? sys ?? 'closed'}: ${message}); ${lost}`
  }
  return `${at}: ${ctx.doing} failed: ${message}${e.code ? ` (SQLSTATE ${e.code})` : ''}`
}
