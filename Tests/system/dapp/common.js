// What the e2e's pages share: reporting to the test's HTTP server, waiting for the test's go,
// and finding wallets the two standard ways. Nothing here knows wallet-bridge: only EIP-6963
// (https://eips.ethereum.org/EIPS/eip-6963) and the Wallet Standard's registration events
// (https://github.com/wallet-standard/wallet-standard, @wallet-standard/app's getWallets).

export const params = new URLSearchParams(location.search);
export const role = params.get('role') ?? 'main';

const logElement = () => document.getElementById('log');
export function log(text) {
  const element = logElement();
  if (element) element.textContent += `${text}\n`;
}

/** A JSON-safe copy of a value: byte arrays become {base64}, bigints strings. */
export function plain(value) {
  if (value instanceof Uint8Array) return { base64: toBase64(value) };
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [key, member] of Object.entries(value)) {
      if (typeof member !== 'function') out[key] = plain(member);
    }
    return out;
  }
  return value;
}

export function describeError(error) {
  return {
    code: error?.code,
    message: String(error?.message ?? error),
    data: plain(error?.data),
    class: error?.constructor?.name ?? typeof error,
  };
}

/** Sends one record to the test (POST /report on this page's own origin). */
export async function report(name, record) {
  log(`${name}: ${JSON.stringify(record).slice(0, 300)}`);
  await fetch('/report', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ role, name, at: Date.now(), ...record }),
  });
}

/** A crash of the page's own script ends its run, said to the test (which then stops waiting). */
export function reportCrashes() {
  const crashed = (message) => report('finished', { ok: false, error: { message: String(message) } });
  window.addEventListener('error', (event) => crashed(event.message));
  window.addEventListener('unhandledrejection', (event) => crashed(event.reason?.stack ?? event.reason));
}

/** Runs one step and reports its outcome: {ok: true, value} or {ok: false, error}. */
export async function step(name, action) {
  try {
    const value = await action();
    await report(name, { ok: true, value: plain(value) });
    return value;
  } catch (error) {
    await report(name, { ok: false, error: describeError(error) });
    return undefined;
  }
}

/** The test's go for `name`, with what it sends along (GET /wait, which the server holds a while). */
export async function waitFor(name) {
  for (let tries = 0; tries < 12; tries += 1) {
    const answer = await fetch(`/wait?role=${encodeURIComponent(role)}&name=${encodeURIComponent(name)}`);
    if (answer.status === 200) return answer.json();
    if (answer.status !== 204) throw new Error(`the test answered ${answer.status} to the wait for ${name}`);
  }
  throw new Error(`the test gave no go for ${name}`);
}

/**
 * The wallets this page finds, by EIP-6963 and by the Wallet Standard. A wallet's content
 * script can miss a page that loaded while the browser was still starting its extensions: when
 * neither standard finds anything within a few seconds, the page loads itself again (a bounded
 * number of times), as a person would press reload.
 */
export async function discover() {
  const attempt = Number(params.get('attempt') ?? '0');
  await report('loaded', { ok: true, value: { attempt, userAgent: navigator.userAgent } });
  const announced = [];
  window.addEventListener('eip6963:announceProvider', (event) => {
    if (!announced.some((known) => known.info.uuid === event.detail.info.uuid)) announced.push(event.detail);
  });
  const registered = [];
  const via = [];
  const api = (path) => ({
    register(...wallets) {
      for (const wallet of wallets) {
        if (!registered.includes(wallet)) {
          registered.push(wallet);
          via.push(path);
        }
      }
      return () => {};
    },
  });
  // Wallets that load after the app register through this event; those loaded before answer
  // the app-ready event below.
  window.addEventListener('wallet-standard:register-wallet', (event) => event.detail(api('register-wallet')));
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api('app-ready') }));
  const deadline = Date.now() + 4000;
  while (Date.now() < deadline && (announced.length === 0 || registered.length === 0)) {
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (announced.length === 0 && registered.length === 0 && attempt < 15) {
    params.set('attempt', String(attempt + 1));
    location.search = params.toString();
    await new Promise(() => {}); // the page is going away
  }
  return { announced, registered, via, attempts: attempt + 1 };
}

export function toBase64(bytes) {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

export function fromBase64(text) {
  return Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
}

export function utf8Hex(text) {
  return `0x${Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
