export * from './schemas/index.js'
export { ENDPOINTS, API_KEY_HEADER, DEFAULT_BASE_URL, type EndpointName, type CandleEndpointName } from './endpoints.js'
