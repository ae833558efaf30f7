/**
 * A real PostgreSQL server for tests and the bench: initdb on a temporary data directory, `postgres`
 * on 127.0.0.1 and a free port (and a socket in the same directory), stopped by its PID, the
 * directory removed. PostgreSQL refuses to run as root: as root, both run as the `postgres` user
 * (Debian's package creates it). Clients authenticate with a password over TCP (scram-sha-256).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.js'

/** Why PostgreSQL tests are skipped on this machine, or undefined when they can run. */
export const POSTGRES_MISSING: string | undefined = findBinDir() === undefined ? "PostgreSQL is not installed (no initdb/postgres under /usr/lib/postgresql/*/bin): apt-get install -y postgresql, as .ci/run does" : undefined

export const PG_USER = 'postgres'
// A fixed test password: the tests check it never appears in the export's output.
export const PG_PASSWORD = 'pg-test-s3cret-pw'

export interface RunningPostgres {
  readonly port: number
  readonly pid: number | undefined
  /** `postgres://postgres:PASSWORD@127.0.0.1:PORT/DB`. */
  url(database?: string, password?: string): string
  /** Stops the server (fast shutdown: open connections are cut) and waits for it to exit. */
  stop(): Promise<void>
  /** Starts it again on the same data directory and port. */
  start(): Promise<void>
  /** Stops it and removes the data directory. */
  destroy(): Promise<void>
}

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
  return versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres')))
}

// Who runs the server: ourselves, or the `postgres` user when we are root.
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' })
  const uid = id('-u')
  const gid = id('-g')
  if (uid.status !== 0 || gid.status !== 0) throw new Error('running as root, but there is no postgres user to run PostgreSQL as (apt-get install -y postgresql creates it)')
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}


/*
 * initdb once: a fresh data directory is kept in the temp folder as a template, and each server starts
 * on a copy of it (cp -a keeps the owner and modes). initdb costs about 1.45 s of CPU, the copy of its
 * 39 MB 0.3 s (2026-11-29); four test files start a server. The template is named after the initdb
 * binary (path, size, mtime) and its arguments (the password among them), so another PostgreSQL or
 * other settings get their own; it appears whole or not at all (a rename).
 */
function templateDir(bin: string, initArgs: readonly string[]): string {
  const initdb = statSync(join(bin, 'initdb'))
  const key = createHash('sha256').update(JSON.stringify([bin, initdb.size, initdb.mtimeMs, initArgs.filter((a) => !a.startsWith('--pwfile=')), PG_PASSWORD])).digest('hex').slice(0, 16)
  return join(tmpdir(), `market-candles-pg-template-${process.getuid?.() ?? 'u'}-${key}`)
}

/** Copies the template to `data`; false when there is none (or the copy failed: initdb then). */
function copyDataDir(template: string, data: string): boolean {
  if (!existsSync(join(template, 'PG_VERSION'))) return false
  if (spawnSync('cp', ['-a', template, data], { timeout: 60_000 }).status === 0) return true
  rmSync(data, { recursive: true, force: true })
  return false
}

/** Keeps a copy of a data directory initdb has just written as the template, unless one is there already. */
function publishTemplate(data: string, template: string): void {
  if (existsSync(template)) return
  const staging = `${template}.${process.pid}.${Date.now()}`
  if (spawnSync('cp', ['-a', data, staging], { timeout: 60_000 }).status === 0) {
    try {
      renameSync(staging, template)
      return
    } catch {
      // Another server published it first.
    }
  }
  rmSync(staging, { recursive: true, force: true })
}

export interface StartPostgresOptions {
  /** Durability as a production server has it (the bench); tests turn fsync off. @default false */
  durable?: boolean
}

/** initdb + postgres; rejects (after cleaning up) when the server does not come up within 30 s. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<RunningPostgres> {
  const bin = findBinDir()
  if (bin === undefined) throw new Error(POSTGRES_MISSING)
  const user = runAs()
  const dir = mkdtempSync(join(tmpdir(), 'market-candles-pg-'))
  const data = join(dir, 'data')
  const pwfile = join(dir, 'pwfile')
  writeFileSync(pwfile, `${PG_PASSWORD}\n`)
  if (user) {
    chmodSync(dir, 0o700)
    chownSync(dir, user.uid, user.gid)
    chownSync(pwfile, user.uid, user.gid)
  }
  const initArgs = ['-U', PG_USER, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']
  const template = templateDir(bin, initArgs)
  if (!copyDataDir(template, data)) {
    const init = spawnSync(join(bin, 'initdb'), ['-D', data, ...initArgs], { encoding: 'utf8', ...user, cwd: dir, timeout: 60_000 })
    if (init.status !== 0) {
      rmSync(dir, { recursive: true, force: true })
      throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr}`)
    }
    publishTemplate(data, template)
  }
  const port = await freePort()
  const settings = options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
  let child: ChildProcess | undefined
  let log = ''

  const start = async () => {
    log = ''
    const proc = spawn(join(bin, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'max_connections=40', ...settings], {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...user,
      cwd: dir,
    })
    child = proc
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => (log = (log + d).slice(-20_000)))
    const until = Date.now() + 30_000
    while (!/ready to accept connections/.test(log)) {
      if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > until) {
        if (proc.exitCode === null) proc.kill('SIGKILL')
        throw new Error(`postgres did not start: ${log.slice(-2000)}`)
      }
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const stop = async () => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
    // SIGINT: fast shutdown, open sessions are terminated (what a lost connection looks like).
    proc.kill('SIGINT')
    const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000)
    await exited
    clearTimeout(timer)
  }

  try {
    await start()
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    port,
    get pid() {
      return child?.pid
    },
    url: (database = 'postgres', password = PG_PASSWORD) => `postgres://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop,
    start,
    destroy: async () => {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
