import { getResponse } from 'msw'
import { createMockService, type MockService, type MockServiceOptions } from '../../mocks/index.js'
import { createHandlers } from '../../mocks/msw/index.js'
import { startMockServer } from '../../mocks/server/index.js'

/** A response as a test reads it. */
export interface TestResponse {
  status: number
  headers: Headers
  body: any
  /** The connection broke (an injected network fault). */
  networkError: boolean
}

/** One way of reaching the reference service: through MSW handlers or a real HTTP server. */
export interface Transport {
  readonly name: string
  readonly service: MockService
  request(method: string, path: string, headers?: Record<string, string>): Promise<TestResponse>
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>
  close(): Promise<void>
}

const BASE = 'http://mock.test/api'

async function read(res: Response): Promise<TestResponse> {
  if (res.type === 'error') return { status: 0, headers: new Headers(), body: undefined, networkError: true }
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text), networkError: false }
}

/** MSW handlers driven with msw's `getResponse`, no network involved. */
export async function viaMsw(options: MockServiceOptions = {}): Promise<Transport> {
  const service = createMockService({ validateResponses: true, ...options })
  const handlers = createHandlers(service, { baseUrl: BASE })
  const request = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const res = await getResponse(handlers, new Request(`${BASE}${path}`, { method, headers }))
    if (!res) throw new Error(`MSW handlers did not answer ${method} ${path}`)
    return read(res)
  }
  return { name: 'msw', service, request, get: (p, h) => request('GET', p, h), close: async () => {} }
}

/** The standalone node:http server on a random port. */
export async function viaHttp(options: MockServiceOptions = {}): Promise<Transport> {
  const server = await startMockServer({ port: 0, validateResponses: true, ...options })
  const request = async (method: string, path: string, headers: Record<string, string> = {}) => {
    try {
      return await read(await fetch(`${server.url}${path}`, { method, headers }))
    } catch (error) {
      if (error instanceof TypeError) return { status: 0, headers: new Headers(), body: undefined, networkError: true }
      throw error
    }
  }
  return { name: 'http', service: server.service, request, get: (p, h) => request('GET', p, h), close: () => server.close() }
}

/** Both transports, for `describe.each`. */
export const TRANSPORTS = [
  ['msw', viaMsw],
  ['http', viaHttp],
] as const

/** Builds a query string from defined values. */
export function qs(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v))
  const text = search.toString()
  return text ? `?${text}` : ''
}

export const PRO = { 'X-API-Key': 'demo-pro-key' }
export const FREE = { 'X-API-Key': 'demo-free-key' }
export const ENTERPRISE = { 'X-API-Key': 'demo-enterprise-key' }
export const ENTERPRISE_2 = { 'X-API-Key': 'demo-enterprise-key-2' }
export const REVOKED = { 'X-API-Key': 'demo-revoked-key' }
