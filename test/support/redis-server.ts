/*
 * A real redis-server for tests, examples and the bench: Debian's package, on a free port of
 * 127.0.0.1, without persistence, stopped by its PID. Without it, callers skip with REDIS_SKIP_NOTE.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { freePort } from './free-port.js'

export const REDIS_SERVER = '/usr/bin/redis-server'
export const hasRedis = existsSync(REDIS_SERVER)
export const REDIS_SKIP_NOTE = `SKIPPED: ${REDIS_SERVER} not found; install it with apt-get install -y redis-server (as .ci/run does)`

export interface RedisServer {
  /** redis://[:password@]127.0.0.1:PORT */
  readonly url: string
  readonly port: number
  readonly pid: number
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>
  /** Starts it again on the same port, empty (no persistence). */
  restart(): Promise<void>
  /** SIGSTOP: it holds its connections but answers nothing. */
  pause(): void
  /** SIGCONT. */
  resume(): void
  /** Stops it (SIGTERM, then SIGKILL after 2 s). */
  stop(): Promise<void>
}


function launch(port: number, password: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice']
  if (password !== undefined) args.push('--requirepass', password)
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => fail(new Error(`redis-server on port ${port} not ready after 10 s: ${out.slice(-500)}`)), 10_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer)
        child.stdout!.off('data', onData)
        child.stdout!.resume()
        child.stderr!.resume()
        resolve(child)
      }
    }
    // The ready line is logged at notice level.
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => fail(new Error(`redis-server on port ${port} exited with code ${code}: ${out.slice(-500)}`)))
  })
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** Starts redis-server on a free port; `password` sets `requirepass`. */
export async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
  let port = 0
  let child: ChildProcess | undefined
  // Another process may take the free port between the check and the bind: try a few.
  for (let attempt = 0; child === undefined; attempt++) {
    port = await freePort()
    try {
      child = await launch(port, options.password)
    } catch (error) {
      if (attempt >= 3) throw error
    }
  }
  let current = child
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`
  const server: RedisServer = {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    get pid() {
      return current.pid!
    },
    async kill() {
      process.kill(current.pid!, 'SIGKILL')
      await exited(current)
    },
    async restart() {
      current = await launch(port, options.password)
    },
    pause() {
      process.kill(current.pid!, 'SIGSTOP')
    },
    resume() {
      process.kill(current.pid!, 'SIGCONT')
    },
    async stop() {
      if (current.exitCode !== null || current.signalCode !== null) return
      process.kill(current.pid!, 'SIGCONT')
      process.kill(current.pid!, 'SIGTERM')
      const timer = setTimeout(() => current.kill('SIGKILL'), 2000)
      await exited(current)
      clearTimeout(timer)
    },
  }
  return server
}
