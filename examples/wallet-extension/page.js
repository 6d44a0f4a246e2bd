// The page script: runs in the page's own world (the content script injected it as a module,
// with the page's id after #), where dApps look for wallets.
import { installPageProviders } from './wallet-bridge/provider/index.js';
import { CHANNEL, INFO } from './config.js';

// EIP-6963's uuid is per page: a fresh one each time.
installPageProviders({ channel: CHANNEL, info: { ...INFO, uuid: crypto.randomUUID() }, id: new URL(import.meta.url).hash.slice(1) });
