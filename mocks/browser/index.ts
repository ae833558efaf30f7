export { setupMockWorker, type MockWorkerHandle, type MockWorkerStartOptions, type SetupMockWorkerOptions } from './setup-mock-worker.js'
