// `npm run demo:web`: builds the browser demo and serves it on http://127.0.0.1:5173 (or a free port).
import { buildDemo, serveDemo, type DemoServer } from './build.js'

await buildDemo()
let server: DemoServer
try {
  server = await serveDemo(undefined, 5173)
} catch {
  server = await serveDemo(undefined, 0) // 5173 is taken
}
console.log(`market-candles browser demo: ${server.url}  (Ctrl-C stops it)`)
