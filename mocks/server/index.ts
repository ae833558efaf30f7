export { startMockServer, createRequestListener, answerParserErrors, type MockServerOptions, type RunningMockServer } from './http-server.js'
