export { buildOpenApiDocument } from './document.js'
