export { startMockServer, createRequestListener, type MockServerOptions, type RunningMockServer } from './http-server.js'
