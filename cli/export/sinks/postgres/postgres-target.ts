import { withoutPassword } from '../../flags/without-password.js'
import { OutputError } from '../sink.js'

/** Where the PostgreSQL sink connects: a pg client configuration, and how to name it in messages. */
export interface PostgresTarget {
  config: {
    host?: string
    port?: number
    user?: string
    password?: string
    database?: string
    ssl?: boolean | { rejectUnauthorized: boolean }
    application_name?: string
  }
  /** `postgres://user@host:port/db`: the target without its password, for every message. */
  shown: string
  schema: string
}

const URL_SCHEME = /^postgres(?:ql)?:\/\//i

/** Whether an `--out` value is a PostgreSQL connection URL. */
export function isPostgresUrl(out: string): boolean {
  return URL_SCHEME.test(out)
}

// libpq's sslmode values, as pg can honour them (pg cannot fall back from TLS to plain: prefer and allow connect in plain).
function sslOf(mode: string | undefined): PostgresTarget['config']['ssl'] {
  switch (mode) {
    case undefined:
    case '':
    case 'disable':
    case 'allow':
    case 'prefer':
      return undefined
    case 'require':
      return { rejectUnauthorized: false }
    case 'verify-ca':
    case 'verify-full':
      return { rejectUnauthorized: true }
    default:
      throw new OutputError(`sslmode must be disable, allow, prefer, require, verify-ca or verify-full, got '${mode}'`)
  }
}

const PARAMS = new Set(['host', 'port', 'user', 'password', 'dbname', 'sslmode', 'application_name'])

/**
 * The connection from a `postgres://` or `postgresql://` URL, what it leaves out taken from PGHOST,
 * PGPORT, PGUSER, PGPASSWORD, PGDATABASE and PGSSLMODE as libpq reads them (`--out postgres://` alone
 * uses those only; no password anywhere lets pg read ~/.pgpass or PGPASSFILE). The schema is
 * `--pg-schema`, else `public`. Messages never hold the password.
 */
export function postgresTarget(out: string, schema: string | undefined, env: NodeJS.ProcessEnv): PostgresTarget {
  let url: URL
  try {
    url = new URL(out)
  } catch {
    throw new OutputError(`--out ${withoutPassword(out)} is not a valid PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)`)
  }
  for (const key of url.searchParams.keys()) {
    if (!PARAMS.has(key)) throw new OutputError(`--out: unknown connection parameter '${key}' (known: ${[...PARAMS].join(', ')})`)
  }
  const q = (name: string) => url.searchParams.get(name) || undefined
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s)
    } catch {
      throw new OutputError('--out: the URL holds a malformed %-escape in its user, password or database')
    }
  }
  const host = (url.hostname ? decode(url.hostname) : undefined) ?? q('host') ?? (env.PGHOST || undefined)
  const portText = url.port || q('port') || env.PGPORT || undefined
  const port = portText === undefined ? undefined : Number(portText)
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new OutputError(`--out: the port must be 1 to 65535, got '${portText}'`)
  const user = (url.username ? decode(url.username) : undefined) ?? q('user') ?? (env.PGUSER || undefined)
  const password = (url.password ? decode(url.password) : undefined) ?? q('password') ?? (env.PGPASSWORD || undefined)
  const path = url.pathname.replace(/^\//, '')
  const database = (path ? decode(path) : undefined) ?? q('dbname') ?? (env.PGDATABASE || undefined)
  const ssl = sslOf(q('sslmode') ?? (env.PGSSLMODE || undefined))
  const shownHost = host === undefined ? 'localhost' : host.startsWith('/') ? encodeURIComponent(host) : host.includes(':') ? `[${host}]` : host
  const shown = `postgres://${user === undefined ? '' : `${encodeURIComponent(user)}@`}${shownHost}${port === undefined ? '' : `:${port}`}/${database ?? ''}`
  return {
    config: { host, port, user, password, database, ssl, application_name: q('application_name') ?? 'market-candles export' },
    shown,
    schema: schema ?? 'public',
  }
}
