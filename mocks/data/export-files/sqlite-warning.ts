/**
 * Drops the ExperimentalWarning some Node versions print on the first load of `node:sqlite` until
 * the returned function is called: users of `export` or `load()` did not choose the module. Every
 * other warning passes.
 */
export function dropSqliteWarning(): () => void {
  const proc = process
  const emitWarning = proc.emitWarning
  proc.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name
    if (type === 'ExperimentalWarning' && /sqlite/i.test(text)) return
    return (emitWarning as (...args: unknown[]) => void).call(proc, warning, ...rest)
  }) as typeof proc.emitWarning
  return () => {
    proc.emitWarning = emitWarning
  }
}
