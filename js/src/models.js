/**
 * The built-in wallet methods, mirroring Sources/WalletBridgeProtocol/WalletMethods.swift
 * field for field. Results are checked before they reach the caller: safari-extension-walletlib
 * defined such validators too, but its results were JSON strings parsed on trust.
 */
import { NativeProtocolError } from './errors.js';
import { describe, isPlainObject } from './protocol.js';

/**
 * @typedef {import('./index.js').NativeGetAccountsResult} NativeGetAccountsResult
 * @typedef {import('./index.js').NativeSignPayloadsParams} NativeSignPayloadsParams
 * @typedef {import('./index.js').NativeSignPayloadsResult} NativeSignPayloadsResult
 * @typedef {import('./index.js').NativeRpcId} NativeRpcId
 */

/** Lists the wallet's accounts. The same string walletlib sends. */
export const NATIVE_GET_ACCOUNTS_METHOD = 'NATIVE_GET_ACCOUNTS_METHOD';
/** Signs payloads with one account's key. The same string walletlib sends. */
export const NATIVE_SIGN_PAYLOADS_METHOD = 'NATIVE_SIGN_PAYLOADS_METHOD';
/** walletlib's export name for NATIVE_GET_ACCOUNTS_METHOD, so ported imports keep working. */
export const NATIVE_GET_ACCOUNTS_RPC_METHOD = NATIVE_GET_ACCOUNTS_METHOD;
/** walletlib's export name for NATIVE_SIGN_PAYLOADS_METHOD, so ported imports keep working. */
export const NATIVE_SIGN_PAYLOADS_RPC_METHOD = NATIVE_SIGN_PAYLOADS_METHOD;

/**
 * Throws a TypeError before anything is sent when the params cannot be right: the host would
 * refuse them anyway, and a local error names the caller's mistake more precisely.
 * @param {unknown} params
 * @returns {asserts params is NativeSignPayloadsParams}
 */
export function checkSignPayloadsParams(params) {
  if (!isPlainObject(params)) throw new TypeError(`sign payloads params must be an object, not ${describe(params)}`);
  if (typeof params.address !== 'string') throw new TypeError(`address must be a string, not ${describe(params.address)}`);
  if (!Array.isArray(params.payloads) || !params.payloads.every((payload) => typeof payload === 'string')) {
    throw new TypeError('payloads must be an array of base64 strings');
  }
}

/**
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null }} [context]
 * @returns {NativeGetAccountsResult}
 */
export function checkGetAccountsResult(result, context = {}) {
  const problem = !isPlainObject(result)
    ? `the result is ${describe(result)}, not an object`
    : !isStringArray(result.addresses)
      ? `addresses is ${describe(result.addresses)}, not an array of strings`
      : null;
  if (problem) throw invalidResult(NATIVE_GET_ACCOUNTS_METHOD, problem, result, context);
  return /** @type {NativeGetAccountsResult} */ (result);
}

/**
 * @param {unknown} result
 * @param {NativeSignPayloadsParams} params the request, whose payload count the result must match
 * @param {{ id?: NativeRpcId | null }} [context]
 * @returns {NativeSignPayloadsResult}
 */
export function checkSignPayloadsResult(result, params, context = {}) {
  const problem = !isPlainObject(result)
    ? `the result is ${describe(result)}, not an object`
    : !isStringArray(result.signed_payloads)
      ? `signed_payloads is ${describe(result.signed_payloads)}, not an array of strings`
      : result.signed_payloads.length !== params.payloads.length
        ? `signed_payloads has ${result.signed_payloads.length} entries for ${params.payloads.length} payloads`
        : null;
  if (problem) throw invalidResult(NATIVE_SIGN_PAYLOADS_METHOD, problem, result, context);
  return /** @type {NativeSignPayloadsResult} */ (result);
}

/**
 * @param {unknown} value
 * @returns {value is string[]}
 */
function isStringArray(value) {
  return Array.isArray(value) && value.every((element) => typeof element === 'string');
}

/**
 * @param {string} method
 * @param {string} problem
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null }} context
 */
function invalidResult(method, problem, result, context) {
  return new NativeProtocolError({
    kind: 'invalid-result',
    message: `${method} returned a malformed result: ${problem}`,
    response: result,
    id: context.id ?? null,
    method,
  });
}
