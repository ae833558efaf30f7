/** A failure whose message is complete as it is: printed, then exit 1. */
export class ExportError extends Error {
  override name = 'ExportError'
}
