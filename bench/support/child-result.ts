import { spawn } from 'node:child_process'

/**
 * Runs `node --import tsx SCRIPT ...args` and resolves the JSON of its `result ` line; rejects with
 * its stderr when it exits without one or with a non-zero code, or kills it after `timeoutMs`. The
 * child is killed too if the bench exits first. `failure` may turn a result into an error message,
 * which is reported with the child's stderr. `nodeArgs` go to node before the script (V8 flags).
 */
export function runChildForResult<R>(script: string, args: string[], timeoutMs: number, failure?: (result: R) => string | undefined, nodeArgs: string[] = []): Promise<R> {
  const label = `${script} ${args[0] ?? ''}`.trimEnd()
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  const kill = () => child.kill('SIGKILL')
  process.on('exit', kill)
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s))
  child.stderr.setEncoding('utf8').on('data', (s: string) => err.length < 8000 && (err += s))
  return new Promise<R>((resolve, reject) => {
    const timer = setTimeout(() => (kill(), reject(new Error(`${label}: no result within ${timeoutMs} ms`))), timeoutMs)
    child.once('error', (error) => (clearTimeout(timer), reject(error)))
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      process.off('exit', kill)
      const line = out.split('\n').find((l) => l.startsWith('result '))
      if (code !== 0 || !line) return reject(new Error(`${label} exited (${signal ?? code})${err ? `\n--- stderr ---\n${err.trimEnd()}` : ''}`))
      const result = JSON.parse(line.slice('result '.length)) as R
      const failed = failure?.(result)
      if (failed !== undefined) return reject(new Error(`${failed}\n--- stderr ---\n${err.trimEnd()}`))
      resolve(result)
    })
  })
}
