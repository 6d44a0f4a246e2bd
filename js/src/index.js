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
  sendNativeSessionConnectRequest,
  sendNativeSessionDisconnectRequest,
  sendNativeSessionExtendRequest,
  sendNativeSessionListRequest,
  sendNativeSessionRequest,
  sendNativeSignMessageRequest,
  sendNativeSignPayloadsRequest,
} from './client.js';
export { base58Decode, base58Encode } from './base58.js';
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
export {
  SESSION_CONNECT_METHOD,
  SESSION_DELETE_NOTIFICATION,
  SESSION_DISCONNECT_METHOD,
  SESSION_EVENT_NAMES,
  SESSION_EVENT_NOTIFICATION,
  SESSION_EXPIRE_NOTIFICATION,
  SESSION_EXTEND_METHOD,
  SESSION_LIST_METHOD,
  SESSION_REQUEST_METHOD,
  SESSION_UPDATE_NOTIFICATION,
  SOLANA_ACCOUNTS_CHANGED_EVENT,
  SOLANA_CHAINS,
  SOLANA_DEVNET_CHAIN_ID,
  SOLANA_GET_ACCOUNTS_METHOD,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_NAMESPACE,
  SOLANA_REQUEST_ACCOUNTS_METHOD,
  SOLANA_SIGN_MESSAGE_METHOD,
  SOLANA_TESTNET_CHAIN_ID,
  checkSession,
  parseAccountId,
  parseChainId,
  signMessage,
} from './sessions.js';
