import { sessionStoreContract } from '../../server/api/testing.ts';
import { MapStore } from '../../examples/custom-store.mjs';

// examples/custom-store.mjs is a user's store: it must pass the same contract
// suite `questline/testing` gives users, or the example teaches a broken store.
sessionStoreContract('examples/custom-store.mjs (MapStore)', async () => ({ store: new MapStore() }));
