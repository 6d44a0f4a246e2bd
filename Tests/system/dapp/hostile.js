// The e2e's hostile page (Tests/system/test_web_pages.py), on a site of its own. It knows the
// victim site's origin, session topic and addresses (the test tells it) and tries to reach that
// session: through the provider with the victim's origin claimed in the request, and by posting
// the wallet's page messages itself, copied from what it overheard of its own provider, with the
// origin, topic and tab of the victim written in, on the real channel and id, on a forged
// channel and on a forged id. Everything this window hears is sent to the test, which checks
// that each attempt got an error and nothing else (nothing of the victim's).
import { describeError, discover, plain, report, reportCrashes, step, utf8Hex, waitFor } from './common.js';

const heard = [];
const posted = new Set(); // the JSON of what this page posted itself
window.addEventListener('message', (event) => {
  let data;
  try {
    data = JSON.parse(JSON.stringify(plain(event.data)));
  } catch {
    data = String(event.data);
  }
  heard.push({
    data, fromThisWindow: event.source === window, origin: event.origin, ours: posted.has(JSON.stringify(event.data)),
  });
});

reportCrashes();

const found = await discover();
await step('discover', () => ({ eip6963: found.announced.length, standard: found.registered.length }));
const ethereum = found.announced[0]?.provider;
const victim = await waitFor('forge');

// 1. The provider itself, asked with the victim's origin and topic written into the request.
const before = heard.length;
await step('claimedOrigin', () => ethereum.request({
  method: 'personal_sign', params: [utf8Hex('forged'), victim.address],
  origin: victim.origin, topic: victim.topic, sender: { origin: victim.origin, url: `${victim.origin}/` },
}));
await step('claimedAccounts', () => ethereum.request({
  method: 'eth_accounts', origin: victim.origin, topic: victim.topic,
}));

// 2. The page messages themselves: the provider's own request for the signature above,
// overheard, is the template.
const template = heard.slice(before).map((entry) => entry.data)
  .find((data) => data && typeof data === 'object' && data.type === 'request');
await report('template', { ok: Boolean(template), value: template ?? null });
const claim = (message) => {
  const copy = JSON.parse(JSON.stringify(message));
  const write = (object) => {
    // The members already there first: the claims written below are not walked into.
    const nested = Object.values(object)
      .filter((member) => member && typeof member === 'object' && !Array.isArray(member));
    Object.assign(object, { origin: victim.origin, topic: victim.topic, tab: 1, tabId: 1,
      sender: { origin: victim.origin, url: `${victim.origin}/`, tab: { id: 1 } } });
    for (const member of nested) write(member);
  };
  write(copy);
  // The copy's own request keys stay (the channel, the page id, the request id): only the
  // claims change, so a reply to it is a reply to this page.
  copy.channel = message.channel;
  if ('id' in message) copy.id = message.id;
  return copy;
};
// Each forgery has a request number of its own (`rid`, as overheard), so that any answer to it
// can be told apart: the test expects an error for the two on the real channel and id, and
// nothing at all for the others.
const forgeries = template ? {
  claimedOrigin: { ...claim(template), rid: 900001 },
  sessionCall: { ...claim(template), rid: 900002, call: 'session_request',
    args: {
      topic: victim.topic, origin: victim.origin, chainId: 'eip155:1',
      request: { method: 'eth_accounts', params: [] },
    } },
  wrongChannel: { ...claim(template), rid: 900003, channel: `${template.channel}-forged` },
  wrongId: { ...claim(template), rid: 900004, id: `${String(template.id)}-forged` },
} : {};
for (const [name, message] of Object.entries(forgeries)) {
  posted.add(JSON.stringify(message));
  window.postMessage(message, '*');
  await report('posted', { ok: true, value: { name, message } });
}
// The two on the real channel and id are answered (with errors): wait for both, a bounded while.
const answered = (rid) => heard.some((entry) => entry.data?.type === 'reply' && entry.data.rid === rid);
for (let waited = 0; waited < 10_000 && !(answered(900001) && answered(900002)); waited += 100) {
  await new Promise((resolve) => setTimeout(resolve, 100));
}
// A last request of the page's own, the same as the template (so it takes the same way through
// the wallet): its answer comes after anything the other forgeries drew.
try {
  await ethereum.request({ method: 'personal_sign', params: [utf8Hex('forged'), victim.address] });
} catch (error) {
  await report('lastRequest', { ok: false, error: describeError(error) });
}
await report('heard', { ok: true, value: heard });
await report('finished', { ok: true });
