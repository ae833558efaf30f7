/**
 * The export's `fetch`: the client's GETs over node:http and node:https, answered with a standard
 * `Response` whose `text()` is the body already read. Node's own fetch runs every body through web
 * streams and its request and response objects through WebIDL checks: 0.2-0.3 ms of CPU per
 * 1000-candle page more than this on the export's thread, which is the one that limits how fast an
 * export goes when the network does not (bench/export.ts 6c).
 *
 * What the client's requests need of fetch is kept: keep-alive connections, `Accept-Encoding` with
 * gzip, deflate and br bodies decoded, UTF-8 text (a byte order mark dropped, as `text()` drops it),
 * the signal aborting the exchange while headers or body are on their way, errors as rejections.
 * Anything else (a redirect, a method other than GET, a body, a URL that is neither http: nor
 * https:) goes to the global fetch, so it keeps fetch's own behaviour; so does every request when
 * Node is told to use the environment's proxy (`NODE_USE_ENV_PROXY=1`, `--use-env-proxy`).
 */
import http from 'node:http'
import https from 'node:https'
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib'
import { promisify } from 'node:util'

const DECODERS: Record<string, (body: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
  // "deflate" is zlib-wrapped by the standard, raw in some servers: read either, as fetch does.
  deflate: async (body) => ((body[0]! & 0x0f) === 8 ? promisify(inflate)(body) : promisify(inflateRaw)(body)),
}
const REDIRECTS = new Set([301, 302, 303, 307, 308])
const BOM = '\ufeff'

/** A Response whose body is a text being read: what the client's transport reads of a response. */
class TextResponse extends Response {
  readonly #text: Promise<string>
  readonly #url: string

  constructor(text: Promise<string>, url: string, init: ResponseInit) {
    super(null, init)
    this.#text = text
    this.#url = url
    // Read or not, a failed body must not become an unhandled rejection.
    text.catch(() => {})
  }

  override get url(): string {
    return this.#url
  }

  override text(): Promise<string> {
    return this.#text
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.#text)
  }
}

async function readText(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  // Rejects when the connection ends before the body does (or the signal aborts it).
  for await (const chunk of res) chunks.push(chunk as Buffer)
  let body: Buffer = Buffer.concat(chunks)
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase()
  const decode = DECODERS[encoding]
  if (decode !== undefined && body.length > 0) body = await decode(body)
  const text = body.toString('utf8')
  return text.startsWith(BOM) ? text.slice(1) : text
}

function headersOf(res: http.IncomingMessage): Headers {
  const headers = new Headers()
  const raw = res.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  return headers
}

// Node's fetch tunnels through HTTP(S)_PROXY when told to (a setting Node reads once, at start-up);
// fetch then keeps doing so, NO_PROXY and all.
const ENV_PROXY =
  process.env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy') || (process.env.NODE_OPTIONS ?? '').includes('--use-env-proxy')

/** Keep-alive agents of this module (idle sockets do not hold the process open). */
const agents: Record<'http:' | 'https:', http.Agent> = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) }

/**
 * Like the global `fetch` for the client's GET requests, faster; anything else goes to the global fetch.
 * @example
 * createClient({ apiKey, baseUrl, fetch: httpFetch })
 */
export const httpFetch: typeof fetch = (input, init) => {
  const method = (init?.method ?? 'GET').toUpperCase()
  const url = typeof input === 'string' ? URL.parse(input) : null
  if (url === null || ENV_PROXY || (url.protocol !== 'http:' && url.protocol !== 'https:') || method !== 'GET' || init?.body != null) return globalThis.fetch(input, init)
  const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br' }
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value))
  const signal = init?.signal ?? undefined
  const agent = agents[url.protocol as 'http:' | 'https:']
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const request = (url.protocol === 'https:' ? https : http).get(url, { agent, headers, signal }, (res) => {
      const status = res.statusCode ?? 0
      if ((REDIRECTS.has(status) && res.headers.location !== undefined) || status < 200 || status > 599) {
        // fetch follows redirects (and refuses statuses a Response cannot hold): let it.
        res.resume()
        resolve(globalThis.fetch(input, init))
        return
      }
      try {
        resolve(new TextResponse(readText(res), url.href, { status, statusText: res.statusMessage, headers: headersOf(res) }))
      } catch (error) {
        // A status text or header a Response refuses: fetch refuses the answer too.
        res.destroy()
        reject(new TypeError('fetch failed', { cause: error }))
      }
    })
    request.once('error', (error) => reject(signal?.aborted ? signal.reason : error))
  })
}
