/**
 * wallet-bridge: the extension's side of the wallet-bridge native messaging contract.
 * Types are in index.d.ts beside this file; README.md is the guide.
 */
export {
  DEFAULT_TIMEOUTS,
  configureNativeClient,
  createNativeClient,
  getNativeClient,
  resetNativeClient,
  sendNativeGetAccountsRequest,
  sendNativeNotification,
  sendNativeRpcBatch,
  sendNativeRpcRequest,
  sendNativeSignPayloadsRequest,
} from './client.js';
export {
  NATIVE_RPC_ERROR_MESSAGES,
  NativeConfigurationError,
  NativeProtocolError,
  NativeRpcError,
  NativeRpcErrorCode,
  NativeTransportError,
  WalletBridgeError,
} from './errors.js';
export {
  NATIVE_GET_ACCOUNTS_METHOD,
  NATIVE_GET_ACCOUNTS_RPC_METHOD,
  NATIVE_SIGN_PAYLOADS_METHOD,
  NATIVE_SIGN_PAYLOADS_RPC_METHOD,
  checkGetAccountsResult,
  checkSignPayloadsResult,
} from './models.js';
export {
  buildBatch,
  buildNotification,
  buildRequest,
  decodeBatchResponse,
  decodeResponse,
  validateResponse,
} from './protocol.js';
