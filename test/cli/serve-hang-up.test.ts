import { connect } from 'node:net'
import { describe, expect, test } from 'vitest'
import { startCli, waitFor } from '../export/run-cli.js'

/** Sends the head of a request and part of its body, then hangs up. */
function hangUpMidRequest(port: number, head: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head)
      setTimeout(() => (socket.destroy(), resolve()), 50)
    })
    socket.on('error', reject)
  })
}

describe('serve: a client that hangs up mid-request', () => {
  test('leaves at most one plain line in the log, never a stack trace, and the server answers on', async () => {
    const cli = startCli(['serve', '--port', '0'], {}, 60_000)
    try {
      await waitFor(() => cli.output().stdout.includes('\n'), 30_000, 'the listening line')
      const url = cli.output().stdout.split('\n')[0]!.replace('listening on ', '')
      const port = Number(new URL(url).port)
      const body = (length: number) => `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`
      const heads = [
        `POST /_mock/data/candles HTTP/1.1\r\nHost: x\r\n${body(100_000)}[{"exchange":"bitstamp",`,
        `POST /_mock/faults HTTP/1.1\r\nHost: x\r\n${body(500)}{"match":`,
        `POST /_sessions/s1/_mock/clock HTTP/1.1\r\nHost: x\r\n${body(40)}`,
        'GET /v1/exchanges HTTP/1.1\r\nHost: x\r\nX-API-K',
      ]
      for (const head of heads) await hangUpMidRequest(port, head)
      const health = await fetch(`${url}/_mock/health`)
      expect(health.status).toBe(200)
      await waitFor(() => cli.output().stderr.split('\n').filter(Boolean).length >= 3, 10_000, 'the log lines of the three cut bodies')
    } finally {
      cli.child.kill('SIGTERM')
    }
    const { code, stderr } = await cli.result
    expect(code).toBe(0)
    const lines = stderr.split('\n').filter(Boolean)
    expect(lines.length).toBeLessThanOrEqual(4)
    for (const line of lines) expect(line).toMatch(/^market-candles mock server: a client closed its connection before its (POST|GET) request was read whole$/)
  }, 90_000)
})
