import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { httpFetch } from '../../cli/export/client/http-fetch.js'

// The export's fetch answers the client's GETs as the global fetch does, over node:http.
const BODY = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ close_ts: `2024-01-01T00:${String(i % 60).padStart(2, '0')}:00Z`, price: i / 7, note: 'é€😀' })))
let server: http.Server
let base: string
const sockets = new Set<string>()
const seenHeaders: http.IncomingHttpHeaders[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    sockets.add(`${req.socket.remotePort}`)
    seenHeaders.push(req.headers)
    const path = req.url!.split('?')[0]
    const send = (status: number, body: Buffer | string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(body)
    }
    if (path === '/json') return send(200, BODY, { 'ratelimit-remaining': '7', 'x-multi': 'a' })
    if (path === '/gzip') return send(200, gzipSync(BODY), { 'content-encoding': 'gzip' })
    if (path === '/br') return send(200, brotliCompressSync(BODY), { 'content-encoding': 'br' })
    if (path === '/deflate') return send(200, deflateSync(BODY), { 'content-encoding': 'deflate' })
    if (path === '/deflate-raw') return send(200, deflateRawSync(BODY), { 'content-encoding': 'deflate' })
    if (path === '/bom') return send(200, `\ufeff${BODY}`)
    if (path === '/429') return send(429, '{"detail":"slow down"}', { 'retry-after': '3' })
    if (path === '/redirect') return send(302, '', { location: '/json?from=redirect' })
    if (path === '/cut') {
      // Half the promised body, then the connection ends.
      res.writeHead(200, { 'content-length': String(BODY.length) })
      res.write(BODY.slice(0, 1000))
      setTimeout(() => res.socket?.destroy(), 20)
      return
    }
    if (path === '/slow-body') {
      res.writeHead(200, { 'content-length': String(BODY.length) })
      res.write(BODY.slice(0, 1000))
      return // the rest never comes
    }
    if (path === '/no-answer') return // headers never come
    send(404, '{"detail":"Not Found"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

async function both(path: string) {
  const ours = await httpFetch(`${base}${path}`, { method: 'GET', headers: new Headers({ 'x-api-key': 'k' }) })
  const theirs = await fetch(`${base}${path}`, { method: 'GET', headers: new Headers({ 'x-api-key': 'k' }) })
  return { ours: { status: ours.status, ok: ours.ok, text: await ours.text() }, theirs: { status: theirs.status, ok: theirs.ok, text: await theirs.text() }, ours_: ours, theirs_: theirs }
}

describe("the export's fetch gives what the global fetch gives", () => {
  test('status, headers and the body as text, for a success and for an error answer', async () => {
    for (const path of ['/json', '/429', '/missing']) {
      const { ours, theirs, ours_, theirs_ } = await both(path)
      expect(ours).toEqual(theirs)
      for (const name of ['content-type', 'ratelimit-remaining', 'retry-after']) expect(ours_.headers.get(name)).toBe(theirs_.headers.get(name))
      expect(ours_.url).toBe(`${base}${path}`)
    }
    expect(JSON.parse((await both('/json')).ours.text)).toEqual(JSON.parse(BODY))
  })

  test('gzip, br and deflate bodies (zlib-wrapped or raw) are decoded; a byte order mark is dropped', async () => {
    for (const path of ['/gzip', '/br', '/deflate', '/deflate-raw', '/bom']) {
      const { ours, theirs } = await both(path)
      expect(ours.text).toBe(BODY)
      expect(ours).toEqual(theirs)
    }
  })

  test('a redirect is followed as fetch follows it', async () => {
    const { ours, theirs } = await both('/redirect')
    expect(ours).toEqual(theirs)
    expect(ours.status).toBe(200)
    expect(ours.text).toBe(BODY)
  })

  test('the request carries the caller\'s headers and asks for compressed bodies; connections are kept alive', async () => {
    sockets.clear()
    seenHeaders.length = 0
    for (let i = 0; i < 5; i++) await (await httpFetch(`${base}/json`, { headers: new Headers({ 'x-api-key': 'key-1', 'user-agent': 'mc-test' }) })).text()
    expect(seenHeaders.every((h) => h['x-api-key'] === 'key-1' && h['user-agent'] === 'mc-test' && h['accept-encoding'] === 'gzip, deflate, br')).toBe(true)
    expect(sockets.size).toBe(1)
  })

  test('a body cut short rejects text(), never resolves a partial body', async () => {
    const res = await httpFetch(`${base}/cut`, {})
    await expect(res.text()).rejects.toThrow()
  })

  test('the signal aborts while the headers or the body are on their way, with its reason', async () => {
    const early = new AbortController()
    const waiting = httpFetch(`${base}/no-answer`, { signal: early.signal })
    setTimeout(() => early.abort(new Error('gave up')), 50)
    await expect(waiting).rejects.toThrow('gave up')

    const late = new AbortController()
    const res = await httpFetch(`${base}/slow-body`, { signal: late.signal })
    setTimeout(() => late.abort(new Error('too slow')), 50)
    await expect(res.text()).rejects.toThrow()

    const before = new AbortController()
    before.abort(new Error('already'))
    await expect(httpFetch(`${base}/json`, { signal: before.signal })).rejects.toThrow('already')
  })

  test('a refused connection rejects with the system error in its chain (ECONNREFUSED)', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await httpFetch(`http://127.0.0.1:${port}/json`, {}).catch((e: unknown) => e)
    expect((error as { code?: string }).code).toBe('ECONNREFUSED')
  })

  test('with the environment\'s proxy on (NODE_USE_ENV_PROXY=1), requests go through the global fetch, which uses it', async () => {
    // A tunnelling proxy that takes every CONNECT to this file's server, whatever host it names.
    const tunnels: string[] = []
    const proxy = http.createServer((_req, res) => res.writeHead(405).end())
    proxy.on('connect', (req: http.IncomingMessage, client: Socket) => {
      tunnels.push(req.url!)
      const upstream = connect(Number(new URL(base).port), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const script = `import { httpFetch } from ${JSON.stringify(join(process.cwd(), 'cli/export/client/http-fetch.ts'))}; const r = await httpFetch('http://example.invalid/json', {}); process.stdout.write(await r.text())`
    try {
      const env = { ...process.env, NODE_USE_ENV_PROXY: '1', HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, NO_PROXY: '' }
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 30_000 })
      expect(stdout).toBe(BODY)
      expect(tunnels).toEqual(['example.invalid:80'])
    } finally {
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })

  test('what it does not handle goes to the global fetch: a POST, a body, another scheme', async () => {
    const post = await httpFetch(`${base}/json`, { method: 'POST', body: 'x' })
    expect(post.status).toBe(200)
    await expect(httpFetch('data:application/json,[1,2]', {}).then((r) => r.json())).resolves.toEqual([1, 2])
  })
})

describe("the export's fetch over https", () => {
  const dir = mkdtempSync(join(tmpdir(), 'http-fetch-tls-'))
  let tls: https.Server | undefined
  let skip: string | undefined
  beforeAll(async () => {
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
    } catch {
      skip = 'openssl is not installed (apt-get install -y openssl): the https case is not run'
      return
    }
    tls = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => res.end(BODY))
    await new Promise<void>((resolve) => tls!.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    tls?.closeAllConnections()
    await new Promise((resolve) => (tls ? tls.close(resolve) : resolve(undefined)))
    rmSync(dir, { recursive: true, force: true })
  })

  test('a certificate the system does not trust is refused, as fetch refuses it', async (context) => {
    if (skip) return context.skip(skip)
    const url = `https://127.0.0.1:${(tls!.address() as AddressInfo).port}/`
    const ours = await httpFetch(url, {}).catch((e: unknown) => e)
    await expect(fetch(url)).rejects.toThrow()
    expect((ours as { code?: string }).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT')
  })

  test('with the certificate trusted (NODE_EXTRA_CA_CERTS), the body arrives', async (context) => {
    if (skip) return context.skip(skip)
    const url = `https://127.0.0.1:${(tls!.address() as AddressInfo).port}/`
    const script = `import { httpFetch } from ${JSON.stringify(join(process.cwd(), 'cli/export/client/http-fetch.ts'))}; const r = await httpFetch(${JSON.stringify(url)}, {}); process.stdout.write(String((await r.text()).length))`
    // Not execFileSync: the server answering is in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') }, encoding: 'utf8', timeout: 30_000 })
    expect(Number(stdout)).toBe(BODY.length)
  })
})
