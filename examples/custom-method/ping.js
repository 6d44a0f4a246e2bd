// The extension's side of MY_CUSTOM_PING_RPC_METHOD. The Swift side is
// Sources/ping-host/main.swift; both define the same name and the same two shapes.
// In an extension, import from wherever you copied the package, e.g. './vendor/wallet-bridge/src/index.js'.
import { NativeProtocolError, sendNativeRpcRequest } from '../../js/src/index.js';

/**
 * 1. The params, field for field `Ping.Params`. (The host also takes them positionally,
 * `['hi', ['a']]`; this side sends them named, as walletlib does.)
 * @typedef {{ pingParam1: string, pingParam2: readonly string[] }} MyCustomPingParams
 */

/**
 * 2. The result, field for field `Ping.Result`.
 * @typedef {{ pong: string }} MyCustomPingResult
 */

/**
 * 3. The method name, the same string as `Ping.name`, typed with its params and result: the one
 * declaration that makes `sendNativeRpcRequest` check the params and type the result.
 * @type {import('../../js/src/index.js').NativeMethod<'MY_CUSTOM_PING_RPC_METHOD', MyCustomPingParams, MyCustomPingResult>}
 */
export const MY_CUSTOM_PING_RPC_METHOD = 'MY_CUSTOM_PING_RPC_METHOD';

/**
 * Sends the ping through the default client (configureNativeClient) and checks the result's
 * shape before trusting it, as the built-in helpers do.
 * @param {MyCustomPingParams} params
 * @returns {Promise<MyCustomPingResult>}
 */
export async function sendMyCustomPing(params) {
  const result = await sendNativeRpcRequest({ method: MY_CUSTOM_PING_RPC_METHOD, params });
  // The type is the extension's promise; the host's answer is checked before it is trusted.
  if (typeof result?.pong !== 'string') {
    throw new NativeProtocolError({ kind: 'invalid-result', message: `${MY_CUSTOM_PING_RPC_METHOD} returned no pong`, response: result, method: MY_CUSTOM_PING_RPC_METHOD });
  }
  return result;
}
