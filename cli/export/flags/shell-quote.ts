/** Quotes arguments for a POSIX shell, so a printed command can be pasted back as it was run. */
export function shellQuote(args: readonly string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(' ')
}
