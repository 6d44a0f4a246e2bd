/**
 * wallet-bridge/provider: the page side of a wallet extension built on wallet-bridge, in three
 * halves, one per world. Types are in index.d.ts beside this file; js/README.md ("Web pages")
 * is the guide.
 */
export { installPageProviders } from './page.js';
export { startContentScript } from './content.js';
export { SITE_DISCONNECT_MESSAGE, SITE_SESSIONS_MESSAGE, startWalletBackground } from './background.js';
export { ProviderErrorCode, ProviderRpcError } from './wire.js';
