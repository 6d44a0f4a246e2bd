/**
 * wallet-bridge/testing: the shared JSON fixture files, run from the extension's side under
 * `node --test`. Node only; types are in testing.d.ts beside this file; README.md, "Testing
 * with shared fixtures", is the guide.
 */
export { checkFixtureCase, loadFixtureFile, runFixtureFile } from './fixture-runner.js';
