import { startMockServer } from '../../mocks/server/index.js'

/** The key `--mock` uses unless `--api-key-file` names another: the plan with unlimited history. */
export const MOCK_KEY = 'demo-enterprise-key'

/** Starts the reference service in this process, on a free local port, for `--mock`. */
export async function startEmbeddedService(): Promise<{ url: string; close(): Promise<void> }> {
  const server = await startMockServer({ port: 0, host: '127.0.0.1' })
  return { url: server.url, close: () => server.close() }
}
