/*
 * The shared project's setup file (vitest.config.ts): files there share their worker with the files
 * after them (`isolate: false`), so a file that leaves a global patched would change what those
 * see. Each file fails at its end if it left patched what msw's interception patches (fetch, the
 * Fetch API's classes, WebSocket, node:http and node:https): such a file closes what it opened
 * (`mock.close()` in afterAll), or goes in ISOLATED.
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
})

const before = globals()

afterAll(() => {
  const now = globals()
  const patched = (Object.keys(before) as (keyof typeof before)[]).filter((name) => now[name] !== before[name])
  if (patched.length > 0) throw new Error(`this file left ${patched.join(', ')} patched for the files after it in its worker: close what it opened (mock.close()), or list it in ISOLATED (vitest.config.ts)`)
})
