/*
 * SHA-256 of an API key, for the key ring. Every request the service answers looks its key up, so
 * this runs once per request. WebCrypto's digest costs about 50 µs of CPU a call on Node 24 (a job
 * on the thread pool and its promise); node:crypto's hash about 5 µs, and a setImmediate after it
 * keeps the turn of the event loop the thread pool gave (2026-11-29). The core is bundled for
 * browsers, so node:* is fetched at run time (process.getBuiltinModule: Node 22.3+, Bun, Deno);
 * elsewhere WebCrypto digests.
 */

import { runtimeBuiltins } from '../../data/runtime-builtins.js'

type NodeCrypto = typeof import('node:crypto')
type NodeTimers = typeof import('node:timers')

const getBuiltin = runtimeBuiltins()
const nodeCrypto = getBuiltin?.('node:crypto') as NodeCrypto | undefined
const nodeTimers = getBuiltin?.('node:timers') as NodeTimers | undefined
const hashHere = typeof nodeCrypto?.createHash === 'function' && typeof nodeTimers?.setImmediate === 'function'

/**
 * The key's SHA-256 digest. Asynchronous on purpose: it resolves after a turn of the event loop, so
 * an in-process walk through MSW lets timers (test timeouts, aborts) fire between requests.
 */
export async function sha256(text: string): Promise<Uint8Array> {
  if (!hashHere) return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  const digest = nodeCrypto!.createHash('sha256').update(text, 'utf8').digest()
  await new Promise<void>((resolve) => nodeTimers!.setImmediate(resolve))
  return new Uint8Array(digest)
}
