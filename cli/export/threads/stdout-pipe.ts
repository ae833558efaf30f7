/**
 * `--out - | head`: the reader left. Stops quietly, with the status a shell gives a SIGPIPE death
 * (141); any other error on stdout is reported in one line. Returns how to stop watching.
 */
export function watchStdoutPipe(): () => void {
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(141)
    process.stderr.write(`market-candles export: stdout: ${error.message}\n`)
    process.exit(1)
  }
  process.stdout.on('error', onStdoutError)
  return () => process.stdout.off('error', onStdoutError)
}
