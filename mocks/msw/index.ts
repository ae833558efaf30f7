export { createHandlers, type MockHandlersOptions } from './handlers.js'
