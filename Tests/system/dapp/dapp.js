// The e2e's dApp (Tests/system/test_web_pages.py): finds the wallet by EIP-6963 and by the
// Wallet Standard, and uses it only through EIP-1193's request/on and the Wallet Standard's
// features, as any dApp would. Each step's outcome goes to the test, which checks every
// signature with its own libraries. `?role=main` runs every step; `?role=second` (another site,
// another tab) only connects and then listens, for the per-site checks.
import {
  discover, fromBase64, log, params, plain, report, reportCrashes, role, step, utf8Hex, waitFor,
} from './common.js';

// Headless Chromium opens one page from its command line: the first page opens the test's other
// sites in tabs of their own (the test turns the popup blocker off), once.
if (!params.has('attempt')) {
  for (const url of params.getAll('open')) window.open(url, '_blank', 'noopener');
}

reportCrashes();

const found = await discover();
await step('discover', () => ({
  eip6963: found.announced.map(({ info, provider }) => ({
    info, request: typeof provider?.request, on: typeof provider?.on,
  })),
  standard: found.registered.map((wallet) => ({
    name: wallet.name, version: wallet.version, icon: wallet.icon, chains: wallet.chains,
    features: Object.keys(wallet.features), accounts: wallet.accounts.length,
  })),
  attempts: found.attempts,
}));
// An app that loads after the wallet (another bundle of the same page, say) asks with
// app-ready and must be answered at once; one more EIP-6963 request must be answered too.
await step('lateApp', () => {
  const registered = [];
  const register = (...wallets) => {
    registered.push(...wallets);
    return () => {};
  };
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register } }));
  const announced = [];
  const listener = (event) => announced.push(event.detail.info.uuid);
  window.addEventListener('eip6963:announceProvider', listener);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  window.removeEventListener('eip6963:announceProvider', listener);
  return { standard: registered.map((wallet) => wallet.name), eip6963: announced, via: found.via };
});
const ethereum = found.announced[0]?.provider;
const wallet = found.registered[0];
if (!ethereum || !wallet) {
  await report('finished', { ok: false, error: { message: 'no wallet found by one of the standards' } });
  throw new Error('no wallet');
}

// Every event either standard delivers goes to the test, in the order heard.
for (const kind of ['connect', 'disconnect', 'accountsChanged', 'chainChanged']) {
  ethereum.on(kind, (data) => report('event', { ok: true, value: { source: 'eip1193', kind, data: plain(data) } }));
}
wallet.features['standard:events']?.on('change', (properties) => report('event', {
  ok: true,
  value: {
    source: 'standard', kind: 'change',
    data: { accounts: properties.accounts?.map((account) => account.address), chains: properties.chains },
  },
}));

// A Wallet Standard account keeps its members behind getters: described member by member.
const describe = (account) => ({
  address: account.address, publicKey: account.publicKey, chains: [...account.chains],
  features: [...account.features], label: account.label,
});
const request = (method, ...args) => ethereum.request(args.length ? { method, params: args } : { method });

if (role === 'second') {
  // This site connects the Solana way; the session it gets serves EIP-1193 too.
  await waitFor('connect');
  let connected;
  await step('standardConnect', async () => {
    connected = await wallet.features['standard:connect'].connect();
    return { accounts: connected.accounts.map(describe) };
  });
  await step('accountsAfterConnect', () => request('eth_accounts'));
  const after = await waitFor('afterRevoke');
  await step('accountsAfterRevoke', () => request('eth_accounts'));
  await step('standardAccountsAfterRevoke', () => wallet.accounts.map(describe));
  await step('signAfterRevoke', () => request('personal_sign', utf8Hex('after the revocation'), after.address));
  await step('solanaSignAfterRevoke', () => wallet.features['solana:signMessage'].signMessage({
    account: connected.accounts[0], message: new TextEncoder().encode('after the revocation'),
  }));
  await report('finished', { ok: true });
} else {
  await step('accountsBefore', () => request('eth_accounts'));
  const accounts = await step('requestAccounts', () => request('eth_requestAccounts'));
  await step('chainId', () => request('eth_chainId'));
  let connected;
  await step('standardConnect', async () => {
    connected = await wallet.features['standard:connect'].connect();
    return { accounts: connected.accounts.map(describe), walletAccounts: wallet.accounts.map(describe) };
  });
  const address = accounts?.[0];
  const account = connected?.accounts?.[0] ?? wallet.accounts[0];

  // The test has read the session (its chains) and built the transactions for these accounts.
  const go = await waitFor('sign');
  await step('switchChain', () => request('wallet_switchEthereumChain', { chainId: go.switchTo }));
  await step('chainAfterSwitch', () => request('eth_chainId'));
  await step('switchMissing', () => request('wallet_switchEthereumChain', { chainId: go.missingChain }));

  const text = `Hello from the e2e dApp at ${location.origin}`;
  await step('personalSign', async () => ({
    message: text, signature: await request('personal_sign', utf8Hex(text), address),
  }));
  await step('typedData', async () => ({
    typedData: go.typedData,
    signature: await request('eth_signTypedData_v4', address, JSON.stringify(go.typedData)),
  }));

  // EIP-4361, as a dApp writes it for its own site, and one written for another site.
  const chain = Number.parseInt(await request('eth_chainId'), 16);
  const siwe = (domain, uri) => [
    `${domain} wants you to sign in with your Ethereum account:`, address, '',
    'Sign in to the wallet-bridge e2e dApp.', '',
    `URI: ${uri}`, 'Version: 1', `Chain ID: ${chain}`, `Nonce: ${go.nonce}`, `Issued At: ${new Date().toISOString()}`,
  ].join('\n');
  for (const [name, message] of [['siwe', siwe(location.host, `${location.origin}/login`)],
    ['siweOtherSite', siwe(go.otherDomain, `https://${go.otherDomain}/login`)]]) {
    await step(name, async () => ({ message, signature: await request('personal_sign', utf8Hex(message), address) }));
  }
  await step('signTransaction', () => request('eth_signTransaction', { ...go.transaction, from: address }));

  const chainOf = account?.chains?.find((candidate) => candidate.startsWith('solana:')) ?? wallet.chains[0];
  await step('solanaSignMessage', async () => {
    const message = new TextEncoder().encode(`Solana message from ${location.origin}`);
    const [output] = await wallet.features['solana:signMessage'].signMessage({ account, message });
    return { message, ...output };
  });
  await step('solanaSignTransaction', async () => {
    const [output] = await wallet.features['solana:signTransaction'].signTransaction({
      account, chain: chainOf, transaction: fromBase64(go.solanaTransaction),
    });
    return output;
  });
  await step('solanaSignIn', async () => {
    const [output] = await wallet.features['solana:signIn'].signIn({
      statement: 'Sign in to the wallet-bridge e2e dApp.', nonce: go.nonce, uri: `${location.origin}/login`,
    });
    return { ...output, account: output.account?.address };
  });
  await step('solanaSignInOtherSite', async () => {
    const [output] = await wallet.features['solana:signIn'].signIn({
      domain: go.otherDomain, statement: 'Sign in to the wallet-bridge e2e dApp.', nonce: go.nonce,
      uri: `https://${go.otherDomain}/login`,
    });
    return { ...output, account: output.account?.address };
  });

  await report('signed', { ok: true });
  await waitFor('afterRevoke');
  await step('accountsAfterRevoke', () => request('eth_accounts'));
  // Last, the site leaves: standard:disconnect ends its session, for EIP-1193 too.
  await waitFor('disconnect');
  await report('disconnecting', { ok: true }); // what the page hears from here on is its own doing
  await step('standardDisconnect', () => wallet.features['standard:disconnect'].disconnect());
  await step('accountsAfterDisconnect', () => request('eth_accounts'));
  await report('finished', { ok: true });
}
log('done');
