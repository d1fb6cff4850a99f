// `questline/testing`: the contract suites a custom implementation must pass,
// runnable in your own vitest project (vitest is an optional peer dependency).
//
//   import { sessionStoreContract } from 'questline/testing';
//   sessionStoreContract('my store', async () => ({ store: new MyStore() }));

export { sessionStoreContract, storedSession, line, event, HOSTILE_IDS, NO_TURN, type StoreHarness } from '../testing/session-store.contract.ts';
export { outboxContract, completion, type OutboxHarness } from '../testing/outbox.contract.ts';
export { turnLockContract, type TurnLockHarness } from '../testing/turn-lock.contract.ts';
