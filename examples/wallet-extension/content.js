// The content script. Chromium and Firefox load content scripts as classic scripts, so the
// modules come in by dynamic import (they are web-accessible resources, see the manifests).
(() => {
  const runtime = (globalThis.browser ?? globalThis.chrome).runtime;
  Promise.all([import(runtime.getURL('wallet-bridge/provider/index.js')), import(runtime.getURL('config.js'))])
    .then(([{ startContentScript }, { CHANNEL }]) => startContentScript({ channel: CHANNEL, pageScriptUrl: runtime.getURL('page.js') }))
    .catch((error) => console.error('wallet-bridge: the content script could not start', error));
})();
