import { MemoryStore } from '../../server/store/memory.ts';
import { sessionStoreContract } from './session-store.contract.ts';

sessionStoreContract('MemoryStore', async () => ({ store: new MemoryStore() }));
