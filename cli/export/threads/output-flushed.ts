/**
 * Resolves once this thread's stdout and stderr have taken every byte written so far: in the
 * export's worker, once the main thread has them; on the main thread, once the pipe or file has.
 */
export async function outputFlushed(): Promise<void> {
  const flushed = (stream: NodeJS.WritableStream) => new Promise<void>((resolve) => stream.write('', () => resolve()))
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
}
