// Replaced at build time with package.json's version (tsup `define`, and vitest's for the tests), so
// the version is written in one place. Run from source without a build, it reads `dev`.
declare const __MARKET_CANDLES_VERSION__: string | undefined

/** This package's version. */
export const VERSION: string = typeof __MARKET_CANDLES_VERSION__ === 'string' ? __MARKET_CANDLES_VERSION__ : 'dev'

/**
 * The `User-Agent` to send, or undefined where setting one is not ours to do: browsers forbid it,
 * and any header a page adds to a cross-origin request would cost a CORS preflight. Only server
 * runtimes (Node, Bun, Deno) get one.
 */
export function userAgent(): string | undefined {
  const g = globalThis as { process?: { versions?: { node?: unknown } }; Deno?: unknown; window?: unknown }
  const server = typeof g.process?.versions?.node === 'string' || g.Deno !== undefined
  return server && g.window === undefined ? `market-candles/${VERSION}` : undefined
}
