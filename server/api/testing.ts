// `questline/testing`: the contract suites a custom implementation must pass,
// runnable in your own vitest project (vitest is an optional peer dependency).
//
//   import { sessionStoreContract } from 'questline/testing';
//   sessionStoreContract('my store', async () => ({ store: new MyStore() }));

export { sessionStoreContract, storedSession, line, event, HOSTILE_IDS, type StoreHarness } from './session-store.contract.ts';
