// The background (a module service worker in Chromium, an event page in Firefox): one native
// port to the wallet, the content scripts' ports, each site's session. Listeners are added at
// once, as MV3 requires of a service worker.
import { startWalletBackground } from './wallet-bridge/provider/index.js';
import { HOST_NAME, METADATA } from './config.js';

startWalletBackground({ hostName: HOST_NAME, metadata: METADATA });
