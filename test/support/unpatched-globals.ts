/*
 * The shared project's setup file (vitest.config.ts): files there share their worker with the files
 * after them (`isolate: false`), so a file that leaves a global patched would change what those
 * see. Each file fails at its end if it left patched what msw's interception patches (fetch, the
 * Fetch API's classes, WebSocket, node:http and node:https), what the shared files patch for a
 * moment (Function, EventTarget's addEventListener), or a MARKET_CANDLES_* variable changed: such a
 * file closes what it opened (`mock.close()` in afterAll), puts back what it patched
 * (`vi.unstubAllEnvs()`, a `finally`), or goes in ISOLATED.
 */
import http from 'node:http'
import https from 'node:https'
import { afterAll } from 'vitest'

const globals = () => ({
  fetch: globalThis.fetch,
  Request: globalThis.Request,
  Response: globalThis.Response,
  WebSocket: globalThis.WebSocket,
  'http.request': http.request,
  'http.get': http.get,
  'http.ClientRequest': http.ClientRequest,
  'https.request': https.request,
  'https.get': https.get,
  Function: globalThis.Function,
  'EventTarget.prototype.addEventListener': EventTarget.prototype.addEventListener,
  // A variable's value as a global: the SDK reads them when a client is created.
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MARKET_CANDLES_'))),
})

const before = globals()

afterAll(() => {
  const now = globals()
  const patched = [...new Set([...Object.keys(before), ...Object.keys(now)])].filter((name) => (now as Record<string, unknown>)[name] !== (before as Record<string, unknown>)[name])
  if (patched.length > 0) throw new Error(`this file left ${patched.join(', ')} changed for the files after it in its worker: close what it opened (mock.close()), put back what it patched (vi.unstubAllEnvs(), a finally), or list it in ISOLATED (vitest.config.ts)`)
})
