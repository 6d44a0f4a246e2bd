// The popup: the sessions of the site open in the current tab, each with a Disconnect button.
// The site is the one the tab's content script reported to the background (the browser's
// origin for that page), so the popup needs no permission to read tabs' addresses. Everything
// shown is set as text: a session's metadata is the extension's or site's own words.
import { SITE_DISCONNECT_MESSAGE, SITE_SESSIONS_MESSAGE } from './wallet-bridge/provider/index.js';

const api = globalThis.browser ?? globalThis.chrome;
const siteLine = /** @type {HTMLElement} */ (document.getElementById('site'));
const list = /** @type {HTMLElement} */ (document.getElementById('sessions'));
const status = /** @type {HTMLElement} */ (document.getElementById('status'));

/** @param {string} text @param {string} [className] */
function line(text, className = 'line') {
  const element = document.createElement('div');
  element.className = className;
  element.textContent = text;
  return element;
}

/** @param {{ origin: string | null, sessions: any[], error?: string }} reply @param {number} tabId */
function render(reply, tabId) {
  list.replaceChildren();
  siteLine.textContent = reply.origin ?? 'No web page of this extension in this tab.';
  status.textContent = reply.error ? `The wallet could not be asked: ${reply.error}` : '';
  if (reply.origin !== null && reply.sessions.length === 0 && !reply.error) status.textContent = 'Not connected.';
  for (const session of reply.sessions) {
    const item = document.createElement('li');
    const chains = Object.entries(session.namespaces ?? {}).flatMap(([key, ns]) => (key.includes(':') ? [key] : ns.chains ?? []));
    const accounts = [...new Set(Object.values(session.namespaces ?? {}).flatMap((ns) => ns.accounts ?? []).map((id) => id.split(':')[2]))];
    item.append(
      line(`topic ${session.topic.slice(0, 16)}…`),
      line(`expires ${new Date(session.expiry * 1000).toLocaleString()}`, 'muted'),
      line(`chains: ${chains.join(', ')}`),
      line(`accounts: ${accounts.join(', ') || 'none'}`),
    );
    const button = document.createElement('button');
    button.textContent = 'Disconnect';
    button.addEventListener('click', async () => {
      button.disabled = true;
      render(await api.runtime.sendMessage({ type: SITE_DISCONNECT_MESSAGE, tabId, topic: session.topic }), tabId);
    });
    item.append(button);
    list.append(item);
  }
}

async function main() {
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  if (!tab || typeof tab.id !== 'number') {
    render({ origin: null, sessions: [] }, -1);
    return;
  }
  render(await api.runtime.sendMessage({ type: SITE_SESSIONS_MESSAGE, tabId: tab.id }), tab.id);
}

main().catch((error) => { status.textContent = String(error?.message ?? error); });
