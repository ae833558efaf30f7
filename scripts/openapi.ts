import { writeFileSync } from 'node:fs'
import { buildOpenApiDocument } from '../src/openapi/index.js'

/** Writes docs/openapi.json from the zod schemas (`npm run openapi`). */
const target = new URL('../docs/openapi.json', import.meta.url)
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`)
console.log(`wrote ${target.pathname}`)
