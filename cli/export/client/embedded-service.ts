/** The key `--mock` uses unless `--api-key-file` names another: the plan with unlimited history. */
export const MOCK_KEY = 'demo-enterprise-key'

/**
 * Starts the reference service in this process, on a free local port, for `--mock`. With
 * `clockRate` (`--follow --clock-rate N`) its clock starts at the system time and runs N times wall
 * speed; without, it is the system clock. `now()` reads it, exactly.
 */
export async function startEmbeddedService(options: { clockRate?: number | undefined } = {}): Promise<{ url: string; now(): number; close(): Promise<void> }> {
  // The reference service's modules load only for --mock: every other export's worker skips them.
  const { startMockServer } = await import('../../../mocks/server/index.js')
  const server = await startMockServer({ port: 0, host: '127.0.0.1', ...(options.clockRate === undefined ? {} : { now: new Date(), clockRate: options.clockRate }) })
  return { url: server.url, now: () => server.service.clock.now(), close: () => server.close() }
}
