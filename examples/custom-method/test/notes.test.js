// notes.js against Fixtures/notes.json, the file the Swift side runs against ping-host with a
// folder of its own ({tmpdir}) and setup cases. No host here: the answers come from the file,
// so the folder and the order matter only to the runners that start the host. The setup cases
// (save-milk, save-eggs, …) are checked like the others, in a "setup" suite first, then the cases
// in file order.
import { runFixtureFile } from '../../../js/src/testing.js';
import { listNotes, saveNote } from '../notes.js';

runFixtureFile(new URL('../Fixtures/notes.json', import.meta.url), {
  methods: {
    'notes.save': (params, client) => saveNote(params.text, client),
    'notes.list': (_params, client) => listNotes(client),
  },
});
