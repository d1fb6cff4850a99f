import { MemoryStore } from '../../server/store/memory.ts';
import { sessionStoreContract } from '../../server/testing/session-store.contract.ts';

sessionStoreContract('MemoryStore', async () => ({ store: new MemoryStore() }));
