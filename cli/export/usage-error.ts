/** A command-line mistake: `export` prints it with the usage and exits 2. */
export class ExportUsageError extends Error {
  override name = 'ExportUsageError'
}
