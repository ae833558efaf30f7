import { dropSqliteWarning } from '../../../../mocks/data/export-files/sqlite-warning.js'

/**
 * Loads `node:sqlite`. Some Node versions print an ExperimentalWarning on its first import: users of
 * this command did not choose the module, so that one warning is dropped (every other passes).
 */
export async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  const restore = dropSqliteWarning()
  try {
    return await import('node:sqlite')
  } catch (error) {
    throw new Error(`SQLite output needs Node.js 22.13 or newer (node:sqlite), this is ${process.version}: ${(error as Error).message}. Write CSV or JSON Lines instead (--format csv|jsonl)`)
  } finally {
    restore()
  }
}
