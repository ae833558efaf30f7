export { MarketCandlesError } from './market-candles-error.js'
export {
  APIError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  type RequestInfo,
} from './api-error.js'
export { APIConnectionError, APITimeoutError, APIUserAbortError } from './connection-error.js'
export { InvalidParamsError } from './invalid-params-error.js'
export { ResponseValidationError } from './response-validation-error.js'
export { PaginationError } from './pagination-error.js'
