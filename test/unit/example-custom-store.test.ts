import { sessionStoreContract } from '../../server/api/testing.ts';
import type { SessionStore } from '../../server/store/session-store.ts';

// examples/custom-store.mjs is a user's store: it must pass the same contract
// suite `questline/testing` gives users, or the example teaches a broken store.
// (A plain .mjs file has no types: imported by a computed specifier.)
const example = '../../examples/custom-store.mjs';
const { MapStore } = (await import(example)) as { MapStore: new () => SessionStore };

sessionStoreContract('examples/custom-store.mjs (MapStore)', async () => ({ store: new MapStore() }));
