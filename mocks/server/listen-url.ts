import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Starts `server` listening on `host:port` (0 picks a free port) and resolves with its base URL,
 * `http://HOST:PORT` (an IPv6 address in brackets); rejects with the listen error (EADDRINUSE, ...).
 */
export async function listenUrl(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${hostPart}:${address.port}`
}
