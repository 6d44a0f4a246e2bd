// ping.js against the example's fixture file, the one the Swift side's tests run against
// ping-host too: what ping.js sends must be the fixture's request, and what it makes of the
// fixture's response must be its result or its error. `node --test examples/custom-method/test/`
// (no host needed: the answers come from the file).
//
// Every ping case goes through sendMyCustomPing, ping-by-position too: sendMyCustomPing passes
// its params through unchanged (the host decodes either form, and checks them), so the fixture's
// array goes out as the array it is. ping-missing-field and ping-wrong-type go through it the same
// way and must come back as the host's -32602. reset-as-notification has no id, so no reply to
// check a function with: it gets the generic checks (the client builds that notification).
import { runFixtureFile } from '../../../js/src/testing.js';
import { sendMyCustomPing, sendMyCustomReset } from '../ping.js';

runFixtureFile(new URL('../Fixtures/ping.json', import.meta.url), {
  methods: {
    MY_CUSTOM_PING_RPC_METHOD: (params, client) => sendMyCustomPing(params, client),
    MY_CUSTOM_RESET_RPC_METHOD: (_params, client) => sendMyCustomReset(client),
  },
});
