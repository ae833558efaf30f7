// Browsers: the shared checks bundled into a page script (esbuild, as an app's build would). The
// config comes in the page's hash; the result lands in window.__checks.
import { runChecks } from './sdk-checks.mjs'

const config = JSON.parse(decodeURIComponent(location.hash.slice(1)))
runChecks(config).then(
  (results) => (window.__checks = { runtime: 'browser', version: navigator.userAgent, results }),
  (error) => (window.__checks = { error: String(error) }),
)
