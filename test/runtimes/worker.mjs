// workerd: the shared checks bundled into a module worker (esbuild, as a Cloudflare user's build
// would). GET /?config=JSON runs them and answers { runtime, version, results }.
import { runChecks } from './sdk-checks.mjs'

export default {
  async fetch(request) {
    const config = JSON.parse(new URL(request.url).searchParams.get('config'))
    const results = await runChecks(config)
    return Response.json({ runtime: 'workerd', version: navigator.userAgent, results })
  },
}
