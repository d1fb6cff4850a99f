import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemCallEnv } from '../../server/conversation/actions.ts';
import { DirectoryArchive } from '../../server/catalog/registry.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { LowdbStore } from '../../server/store/lowdb.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import type { SessionStore } from '../../server/store/session-store.ts';
import { DEMO_FLOW, REPO_FLOWS, SALES_SCRIPT } from './common.ts';

// The in-process service turns that bench/server/turn-cost.ts (CPU) and
// bench/server/alloc.ts (bytes) measure: the ConversationService the server
// builds (LowdbStore on a temp DATA_DIR or a MemoryStore, the repository's
// flows, the sample actions), no sockets, broadcasts going nowhere.

/** An in-process service and a way to play C concurrent visitors on it. */
export interface ServiceVisitors {
  /** Plays `clients` visitors at once until `turns` message turns have run; resolves to the count. */
  play(turns: number): Promise<number>;
  /** Closes the store and removes the temp DATA_DIR. */
  close(): Promise<void>;
}

/** Builds the service on a `lowdb` or `memory` store for `clients` concurrent visitors. */
export async function serviceVisitors(storeKind: 'lowdb' | 'memory', clients: number): Promise<ServiceVisitors> {
  const dataDir = mkdtempSync(join(tmpdir(), 'questline-turn-cost-'));
  const store: SessionStore = storeKind === 'lowdb' ? await LowdbStore.open(dataDir) : new MemoryStore();
  const tenants = TenantDirectory.load(REPO_FLOWS, new DirectoryArchive(join(dataDir, 'revisions')));
  const service = new ConversationService({ store, tenants, actions: sampleActions, env: systemCallEnv, broadcast: () => {} });
  let turns = 0;
  let n = 0;
  /** Starts a visitor's session. */
  const start = async () => {
    const s = await service.startSession({ tenant: 'acme', flow: DEMO_FLOW });
    if (!s.ok) throw new Error(`start: ${s.error.code}`);
    return s.value.sessionId;
  };
  /** Plays the script on a started session (restarting it on completion) until `stopAt()`. */
  const play = async (sessionId: string, stopAt: () => boolean) => {
    let step = 0;
    while (!stopAt()) {
      if (step >= SALES_SCRIPT.length) {
        const r = await service.command(sessionId, 'restart');
        if (!r.ok) throw new Error(`restart: ${r.error.code}`);
        step = 0;
        continue;
      }
      const r = await service.message(sessionId, SALES_SCRIPT[step]!, `c${n++}`);
      if (!r.ok) throw new Error(`message: ${r.error.code}`);
      turns++;
      step++;
    }
  };
  return {
    /**
     * A round: every visitor's session is started first, then all play at once.
     * (Without the wait, visitors whose start came back first ran every turn of
     * the round in one chain of microtasks — a cached commit never yields to the
     * event loop — while the others' starts waited on the thread pool.)
     */
    async play(limit) {
      turns = 0;
      const stopAt = () => turns >= limit;
      const ids = await Promise.all(Array.from({ length: clients }, start));
      await Promise.all(ids.map((id) => play(id, stopAt)));
      return turns;
    },
    async close() {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
