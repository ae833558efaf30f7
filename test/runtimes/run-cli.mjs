// Node, Bun and Deno: runs the shared checks with the config given as the first argument (JSON) and
// prints one line of JSON: { runtime, version, results }.
import { runChecks } from './sdk-checks.mjs'

const runtime = globalThis.Deno ? 'deno' : globalThis.Bun ? 'bun' : 'node'
const version = globalThis.Deno ? Deno.version.deno : globalThis.Bun ? Bun.version : process.versions.node
const config = JSON.parse(globalThis.Deno ? Deno.args[0] : process.argv[2])
const results = await runChecks(config)
console.log(JSON.stringify({ runtime, version, results }))
