/**
 * Loads the PostgreSQL client (pg and pg-copy-streams, optional peer dependencies): only an export
 * into PostgreSQL needs them, and they never reach the SDK.
 */
export async function loadPostgres(): Promise<{ pg: typeof import('pg'); copyFrom: typeof import('pg-copy-streams').from }> {
  try {
    const [pg, copy] = await Promise.all([import('pg'), import('pg-copy-streams')])
    // Both are CommonJS: their exports arrive as `default` (and, when detected, by name).
    const pgModule = ((pg as { default?: unknown }).default ?? pg) as typeof import('pg')
    const copyFrom = (copy.from ?? (copy as unknown as { default: typeof import('pg-copy-streams') }).default.from) as typeof import('pg-copy-streams').from
    return { pg: pgModule, copyFrom }
  } catch (error) {
    throw new Error(`PostgreSQL output needs the packages pg and pg-copy-streams beside market-candles: npm install pg pg-copy-streams (or npx -p market-candles -p pg -p pg-copy-streams market-candles export ...) (${(error as Error).message})`)
  }
}
