export { setupMockService, type MockServiceHandle, type SetupMockServiceOptions } from './setup-mock-service.js'
