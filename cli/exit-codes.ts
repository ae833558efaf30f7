/**
 * The exit codes of every `market-candles` command, in one place (docs/cli.md lists them for users).
 */
export const EXIT = {
  /** Done: the server stopped cleanly, the export finished, every conformance rule that ran passed. */
  ok: 0,
  /** Failed: a run-time error (unreachable service, a bad --data file, a failed rule), after saying why. */
  failure: 1,
  /** Bad usage: an unknown command or flag, a bad value; the message and the usage are printed. */
  usage: 2,
  /** Interrupted by SIGINT (Ctrl-C) after finishing the page in hand; the same command resumes. */
  interrupted: 130,
  /** Stopped by SIGTERM before an export without --follow was done (128 + 15); the same command resumes. `export --follow` exits 0 on SIGTERM. */
  terminated: 143,
  /** stdout closed by its reader (`... --out - | head`), as a shell reports a SIGPIPE death. */
  brokenPipe: 141,
} as const

/** One of {@link EXIT}'s codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** Each code in a few words, for `market-candles --help` (docs/cli.md has the long form). */
export const EXIT_MEANINGS = {
  0: 'done',
  1: 'failed (the message says why)',
  2: 'bad usage: an unknown command or flag, a bad value, an interval the service does not offer',
  130: 'interrupted (Ctrl-C); the same command resumes',
  141: 'stdout closed by its reader (export --out - | head)',
  143: 'stopped by SIGTERM (export without --follow); the same command resumes',
} as const satisfies Record<ExitCode, string>
