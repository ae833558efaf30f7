/** Where a command prints, a line at a time: the process's console, or a test's own lists. */
export interface CliIo {
  out: (text: string) => void
  err: (text: string) => void
}

/** The process's stdout and stderr, through the console. */
export const PROCESS_IO: CliIo = { out: (text) => console.log(text), err: (text) => console.error(text) }
