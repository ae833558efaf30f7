/**
 * A command-line mistake (an unknown flag, a bad value): every command prints its message with that
 * command's usage and exits {@link EXIT.usage}.
 */
export class UsageError extends Error {
  override name = 'UsageError'
}
