/** Builds the browser demo (esbuild) and serves it from a directory on 127.0.0.1. */
import { copyFile, mkdir, readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const ROOT = join(HERE, '..', '..')

/** Where `npm run demo:web` builds the page (git-ignored). */
export const DEMO_DIR = join(HERE, 'dist')

/** Bundles main.ts, copies index.html and MSW's worker script (what `npx msw init` would copy). */
export async function buildDemo(outDir: string = DEMO_DIR): Promise<void> {
  await mkdir(outDir, { recursive: true })
  await build({
    entryPoints: [join(HERE, 'main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  })
  await copyFile(join(HERE, 'index.html'), join(outDir, 'index.html'))
  await copyFile(join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'), join(outDir, 'mockServiceWorker.js'))
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
}

export interface DemoServer {
  url: string
  close(): Promise<void>
}

/** Serves `dir` on 127.0.0.1: `port` 0 picks a free one. */
export async function serveDemo(dir: string = DEMO_DIR, port = 0): Promise<DemoServer> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    const file = normalize(join(dir, path === '/' ? 'index.html' : path))
    const type = TYPES[extname(file)]
    if (!file.startsWith(dir) || type === undefined) {
      res.writeHead(404).end()
      return
    }
    try {
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
