export * from './client/index.js'
export * from './errors/index.js'
export * from './pagination/index.js'
export { RateLimiter, type RateLimiterOptions, type ReleaseSlot } from './rate-limit/rate-limiter.js'
export * from './schemas/index.js'
// The two wire constants users need; the rest of the contract module is internal.
export { API_KEY_HEADER, DEFAULT_BASE_URL, type EndpointName, type CandleEndpointName } from './contract/index.js'
