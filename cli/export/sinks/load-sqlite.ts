/**
 * Loads `node:sqlite`. Some Node versions print an ExperimentalWarning on its first import: users of
 * this command did not choose the module, so that one warning is dropped (every other passes).
 */
export async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name
    if (type === 'ExperimentalWarning' && /sqlite/i.test(text)) return
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    return await import('node:sqlite')
  } catch (error) {
    throw new Error(`SQLite output needs Node.js 22.13 or newer (node:sqlite), this is ${process.version}: ${(error as Error).message}. Write CSV or JSON Lines instead (--format csv|jsonl)`)
  } finally {
    process.emitWarning = emitWarning
  }
}
