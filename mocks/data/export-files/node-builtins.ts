import { runtimeBuiltins } from '../runtime-builtins.js'
import { LoadError } from './load-error.js'
import { dropSqliteWarning } from './sqlite-warning.js'

type Builtins = {
  'node:fs': typeof import('node:fs')
  'node:path': typeof import('node:path')
  'node:url': typeof import('node:url')
  'node:sqlite': typeof import('node:sqlite')
  'node:zlib': typeof import('node:zlib')
}

/**
 * A Node built-in module, fetched when a file is read: the service core is bundled for browsers
 * (mocks/browser), so nothing it imports may name `node:*` statically. `process.getBuiltinModule`
 * exists on Node 22.3 and newer, Bun and Deno.
 */
export function nodeBuiltin<K extends keyof Builtins>(id: K): Builtins[K] {
  const get = runtimeBuiltins()
  if (get === undefined) {
    throw new LoadError('reading files needs Node (22.3 or newer), Bun or Deno; in a browser, pass rows: load([{ exchange, interval, base, quote, close_ts, ... }])')
  }
  const restore = id === 'node:sqlite' ? dropSqliteWarning() : undefined
  let found: Builtins[K] | undefined
  try {
    found = get(id) as Builtins[K] | undefined
  } finally {
    restore?.()
  }
  if (found === undefined) throw new LoadError(`reading this file needs ${id}, which this runtime lacks (Node 22.13 or newer has node:sqlite)`)
  return found
}
