/**
 * The runtime's `process.getBuiltinModule` (Node 22.3 and newer, Bun, Deno), or undefined where
 * there is none (a browser, an older Node). The service core is bundled for browsers, so nothing it
 * imports may name `node:*` statically: built-ins come through this at run time.
 */
export function runtimeBuiltins(): ((id: string) => unknown) | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule
  return typeof get === 'function' ? get : undefined
}
