// The extension's side of MY_CUSTOM_PING_RPC_METHOD. The Swift side is
// Sources/ping-host/main.swift; both define the same name and the same two shapes.
// In an extension, import from wherever you copied the package, e.g. './vendor/wallet-bridge/src/index.js'.
import { NativeProtocolError, sendNativeRpcRequest } from '../../js/src/index.js';
// 4. The method's own error, -32050 (`Ping.emptyPing`), as a class: generated with the types from
// the host's rpc.discover (`openrpc-to-ts --out ping-host-methods.d.ts --js ping-host-methods.js`).
// Importing the module registers the class, so a -32050 answer to the ping rejects with it.
export { EmptyPingError, HostErrorCode } from './ping-host-methods.js';

/**
 * 1. The params, field for field `Ping.Params`: named, as walletlib sends them, or by position
 * (`['hi', ['a']]`), which the host decodes too.
 * @typedef {{ pingParam1: string, pingParam2: readonly string[] }} MyCustomPingParams
 * @typedef {readonly [pingParam1: string, pingParam2: readonly string[]]} MyCustomPingPositionalParams
 */

/**
 * 2. The result, field for field `Ping.Result`.
 * @typedef {{ pong: string }} MyCustomPingResult
 */

/**
 * 3. The method name, the same string as `Ping.name`, typed with its params and result: the one
 * declaration that makes `sendNativeRpcRequest` check the params and type the result.
 * @type {import('../../js/src/index.js').NativeMethod<'MY_CUSTOM_PING_RPC_METHOD', MyCustomPingParams | MyCustomPingPositionalParams, MyCustomPingResult>}
 */
export const MY_CUSTOM_PING_RPC_METHOD = 'MY_CUSTOM_PING_RPC_METHOD';

/**
 * `Reset`: no params (`NoParams`), and `null` as its result (`NoResult`).
 * @type {import('../../js/src/index.js').NativeMethod<'MY_CUSTOM_RESET_RPC_METHOD', undefined, null>}
 */
export const MY_CUSTOM_RESET_RPC_METHOD = 'MY_CUSTOM_RESET_RPC_METHOD';

/**
 * Sends the ping and checks the result's shape before trusting it, as the built-in helpers do.
 * The params go out as given: the host checks them and answers a wrong one with -32602 naming
 * the field, so this side does not refuse them first. An empty `pingParam1` rejects with
 * EmptyPingError.
 * @param {MyCustomPingParams | MyCustomPingPositionalParams} params
 * @param {import('../../js/src/index.js').NativeClient} [client] left out: the default client,
 *   through sendNativeRpcRequest (configureNativeClient sets it)
 * @returns {Promise<MyCustomPingResult>}
 */
export async function sendMyCustomPing(params, client) {
  const request = { method: MY_CUSTOM_PING_RPC_METHOD, params };
  const result = await (client ? client.request(request) : sendNativeRpcRequest(request));
  // The type is the extension's promise; the host's answer is checked before it is trusted.
  if (typeof result?.pong !== 'string') {
    throw new NativeProtocolError({ kind: 'invalid-result', message: `${MY_CUSTOM_PING_RPC_METHOD} returned no pong`, response: result, method: MY_CUSTOM_PING_RPC_METHOD });
  }
  return result;
}

/**
 * Sends the reset; resolves to `null`, the host's `NoResult`, checked like the ping's result.
 * @param {import('../../js/src/index.js').NativeClient} [client] left out: the default client
 * @returns {Promise<null>}
 */
export async function sendMyCustomReset(client) {
  const request = { method: MY_CUSTOM_RESET_RPC_METHOD };
  const result = await (client ? client.request(request) : sendNativeRpcRequest(request));
  if (result !== null) {
    throw new NativeProtocolError({ kind: 'invalid-result', message: `${MY_CUSTOM_RESET_RPC_METHOD} returned something other than null`, response: result, method: MY_CUSTOM_RESET_RPC_METHOD });
  }
  return result;
}
