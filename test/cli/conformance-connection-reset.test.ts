import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../cli/conformance/index.js'
import { startMockServer } from '../../mocks/server/index.js'

const DIR = mkdtempSync(join(tmpdir(), 'conformance-reset-'))
writeFileSync(join(DIR, 'key'), 'demo-enterprise-key\n')
afterAll(() => rmSync(DIR, { recursive: true, force: true }))

/**
 * The reference service behind a front that closes the connection, without an answer, of the
 * requests `reset` picks: what a kept-alive connection closed by the server's idle timeout looks
 * like to the client, or a service that drops connections.
 */
async function behindResets(reset: (n: number) => boolean) {
  const service = await startMockServer({ port: 0, now: '2025-01-01T00:00:00Z' })
  let n = 0
  const front: Server = createServer(async (req, res) => {
    if (reset(++n)) {
      req.socket.destroy()
      return
    }
    const answer = await fetch(`${service.url}${req.url}`, { method: req.method!, headers: req.headers as Record<string, string> })
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    res.end(Buffer.from(await answer.arrayBuffer()))
  }).listen(0, '127.0.0.1')
  await once(front, 'listening')
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
  const close = async () => {
    front.closeAllConnections()
    await new Promise((resolve) => front.close(resolve))
    await service.close()
  }
  return { url, close, seen: () => n }
}

async function conformance(url: string, name: string) {
  const out: string[] = []
  const json = join(DIR, `${name}.json`)
  const code = await runConformance(['--base-url', url, '--api-key-file', join(DIR, 'key'), '--only', 'other-requests', '--json', json], { out: (l) => out.push(l), err: (l) => out.push(l), env: {} })
  return { code, out: out.join('\n'), report: JSON.parse(readFileSync(json, 'utf8')) }
}

describe('market-candles conformance: a connection closed under a request', () => {
  test('a GET whose connection is closed once is sent again on a new connection, and counts in the request budget', async () => {
    const plain = await behindResets(() => false)
    const baseline = await conformance(plain.url, 'plain').finally(() => plain.close())
    // The rule's second request is closed without an answer.
    const front = await behindResets((n) => n === 2)
    try {
      const run = await conformance(front.url, 'once')
      expect(run.code, run.out).toBe(0)
      expect(run.report.summary).toEqual({ pass: 1, fail: 0, differ: 0, skip: 0 })
      expect(run.report.requests.used).toBe(baseline.report.requests.used + 1)
      expect(front.seen()).toBe(run.report.requests.used)
    } finally {
      await front.close()
    }
  }, 30_000)

  test('a service that closes every connection of a request fails, naming the reset', async () => {
    const front = await behindResets((n) => n > 1)
    try {
      const run = await conformance(front.url, 'always')
      expect(run.code).toBe(1)
      expect(run.out).toMatch(/FAIL {2}other-requests/)
      expect(run.out).toMatch(/no answer \((ECONNRESET|UND_ERR_SOCKET|EPIPE)\)/)
    } finally {
      await front.close()
    }
  }, 30_000)
})
