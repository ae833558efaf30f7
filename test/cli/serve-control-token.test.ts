import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const TOKEN = 'cli-token-7e21b0-secret'

/** Starts the built CLI; `url` resolves with the address of its first stdout line. */
function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const exited = once(child, 'exit').then(([code]) => code as number)
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no output in 10 s; stderr: ${stderr}`)), 10_000)
    child.stdout.on('data', () => {
      const match = /^listening on (\S+)\n/.exec(stdout)
      if (match) clearTimeout(timer), resolve(match[1]!)
    })
    void exited.then((code) => (clearTimeout(timer), reject(new Error(`exited ${code}; stderr: ${stderr}`))))
  })
  url.catch(() => {})
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    return exited
  }
  return { url, exited, stop, output: () => ({ stdout, stderr }) }
}

describe('market-candles serve: the control token', () => {
  test('--control-token T: /_mock answers 401 without Authorization: Bearer T and 200 with it, sessions too; T is printed nowhere', async () => {
    const cli = serve(['--control-token', TOKEN])
    try {
      const url = await cli.url
      const answers: string[] = []
      for (const path of ['/_mock/usage', '/_sessions/a/_mock/usage']) {
        const refused = await fetch(`${url}${path}`)
        expect(refused.status).toBe(401)
        expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/)
        answers.push(await refused.text())
        const allowed = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
        expect(allowed.status).toBe(200)
        answers.push(await allowed.text())
      }
      expect((await fetch(`${url}/v1/assets`)).status).toBe(200)
      expect(answers.join('\n')).not.toContain(TOKEN)
      expect(cli.output().stdout).toMatch(/control plane locked/)
    } finally {
      expect(await cli.stop()).toBe(0)
    }
    expect(`${cli.output().stdout}${cli.output().stderr}`).not.toContain(TOKEN)
  })

  test('MARKET_CANDLES_CONTROL_TOKEN locks it the same way when --control-token is not given', async () => {
    const cli = serve([], { MARKET_CANDLES_CONTROL_TOKEN: TOKEN })
    try {
      const url = await cli.url
      expect((await fetch(`${url}/_mock/health`)).status).toBe(401)
      expect((await fetch(`${url}/_mock/health`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
    } finally {
      await cli.stop()
    }
    expect(`${cli.output().stdout}${cli.output().stderr}`).not.toContain(TOKEN)
  })

  test('an empty --control-token is a usage error that names the flag, not a value', async () => {
    const cli = serve(['--control-token', ''])
    expect(await cli.exited).toBe(2)
    expect(cli.output().stderr).toMatch(/--control-token cannot be empty/)
  })

  // 192.0.2.1 (TEST-NET-1) is on no interface here: the bind fails, so no server listens beyond 127.0.0.1.
  test('--host on an address other than loopback without a token warns on stderr that anyone who reaches it can change its data, keys and faults', async () => {
    const cli = serve(['--host', '192.0.2.1'])
    expect(await cli.exited).toBe(1)
    expect(cli.output().stderr).toMatch(/warning: --host 192\.0\.2\.1 .*anyone who reaches this server can change its data, keys and faults/)
  })

  test('with a token, or on loopback, there is no warning', async () => {
    const locked = serve(['--host', '192.0.2.1'], { MARKET_CANDLES_CONTROL_TOKEN: TOKEN })
    expect(await locked.exited).toBe(1)
    expect(locked.output().stderr).not.toMatch(/warning/)
    expect(locked.output().stderr).not.toContain(TOKEN)
    const loopback = serve(['--host', '127.0.0.1'])
    // Stopped even when it prints no URL in time (a loaded machine): no serve outlives the test.
    try {
      await loopback.url
    } finally {
      await loopback.stop()
    }
    expect(loopback.output().stderr).toBe('')
  })
})
