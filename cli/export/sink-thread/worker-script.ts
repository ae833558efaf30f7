/** Where a worker's code is, and how Node must load it. */
export interface WorkerScript {
  url: URL
  /** From source, tsx loads the .ts file (added unless the process already runs under tsx). */
  execArgv?: string[]
}

/**
 * A worker's entry relative to the module that starts it: the bundle ships it as `bundled` (every
 * file of dist/ sits beside the others); run from source (tsx, vitest) it is the `source` .ts file.
 *
 * @example
 * const { url, execArgv } = workerScript(import.meta.url, './thread-entry.ts', './export-sink.js')
 */
export function workerScript(callerUrl: string, source: string, bundled: string): WorkerScript {
  if (!callerUrl.endsWith('.ts')) return { url: new URL(bundled, callerUrl) }
  const underTsx = process.execArgv.some((a) => a.includes('tsx'))
  return { url: new URL(source, callerUrl), ...(underTsx ? {} : { execArgv: [...process.execArgv, '--import', 'tsx'] }) }
}
