import { createRequire } from 'node:module'
import { runtimeBuiltins } from '../data/runtime-builtins.js'

/*
 * node:http as its module object, never through an ES import. An `import ... from 'node:http'`
 * builds a namespace of every export, and since Node 22 three of them (WebSocket, CloseEvent,
 * MessageEvent) are getters that load undici, Node's fetch: 0.07-0.08 s of CPU at every start of a
 * process that serves and never fetches (`market-candles serve`, a test suite's server child;
 * nodejs/node#57649). process.getBuiltinModule (Node 22.3 and newer, Bun, Deno) hands the module
 * over without that namespace; require() does too where it is missing (Node 22.0-22.2), and any
 * absolute path serves as the base of a require that names a built-in.
 */
const fromRuntime = runtimeBuiltins()

/** `node:http`, loaded without undici. */
export const nodeHttp = (fromRuntime !== undefined ? fromRuntime('node:http') : createRequire(process.execPath)('node:http')) as typeof import('node:http')
