import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Publisher } from '../../server/catalog/publisher.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { RedisPublishLog } from '../../server/redis/publish-log.ts';
import { REPO_FLOWS } from '../support/server.ts';
import { useTestRedis } from '../support/redis.ts';

// Two instances (each its own catalog and copy of flows/) sharing one Redis
// publish the same file at the same moment from the same version: one is
// accepted, the other is refused as stale — never both. A publish runs under
// the Redis lock and appends to the log only if the log is as it read it.

const redis = useTestRedis();
const SOURCE = 'global/patient-intake.flow.yaml';
const OLD = "What is the patient's full legal name?";
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function instance(prefix: string): Promise<Publisher> {
  const dir = mkdtempSync(join(tmpdir(), 'questline-publish-redis-'));
  dirs.push(dir);
  cpSync(REPO_FLOWS, join(dir, 'flows'), { recursive: true });
  return Publisher.open({ catalog: TenantDirectory.load(join(dir, 'flows')), log: new RedisPublishLog(redis.client(), prefix) });
}

describe('Studio publish across Redis instances', () => {
  it('two instances publishing one file at the same moment: one is accepted, the other refused as stale, round after round', async () => {
    const prefix = `p${randomUUID().slice(0, 8)}:`;
    const [a, b] = await Promise.all([instance(prefix), instance(prefix)]);
    for (let round = 1; round <= 4; round++) {
      await Promise.all([a.sync(), b.sync()]);
      const from = a.read(SOURCE)!;
      expect(b.read(SOURCE)!.version).toBe(from.version);
      const text = (who: string) => from.text.replace(/(prompt: You're checking in at our \{\{context\.clinic_id\}\} clinic\. ).*/, `$1${who} asks in round ${round}. ${OLD}`);
      const outs = await Promise.all([
        a.publish(SOURCE, text('A'), from.version, { by: 'a' }),
        b.publish(SOURCE, text('B'), from.version, { by: 'b' }),
      ]);
      expect(outs.filter((o) => o.ok), `round ${round}: ${JSON.stringify(outs).slice(0, 600)}`).toHaveLength(1);
      const refused = outs.find((o) => !o.ok)!;
      expect(refused).toMatchObject({ ok: false, reason: 'stale' });
      const winner = outs[0]!.ok ? 'A' : 'B';
      // the refused one names the version now current: the winner's
      expect(refused.ok === false && refused.reason === 'stale' && refused.version).toBe((winner === 'A' ? a : b).read(SOURCE)!.version);
      await Promise.all([a.sync(), b.sync()]);
      for (const p of [a, b]) expect(p.read(SOURCE)!.text).toContain(`${winner} asks in round ${round}.`);
    }
    // one baseline, then one publish per round
    const log = await new RedisPublishLog(redis.client(), prefix).all();
    expect(log.map((r) => r.kind)).toEqual(['baseline', 'publish', 'publish', 'publish', 'publish']);
  }, 60_000);

  it('appends to the log only if it is as the publisher read it (a publish that lost its lock appends nothing)', async () => {
    const prefix = `p${randomUUID().slice(0, 8)}:`;
    const log = new RedisPublishLog(redis.client(), prefix);
    const record = { path: SOURCE, text: 'x', kind: 'publish' as const, by: 'a', publishedAt: '2026-01-01T00:00:00Z', revisions: [], writtenBack: false };
    expect(await log.append([record], 0)).toMatchObject([{ seq: 1 }]);
    // another instance read the log when it was empty: its append is refused
    expect(await log.append([record], 0)).toBeUndefined();
    expect(await log.append([record, record], 1)).toMatchObject([{ seq: 2 }, { seq: 3 }]);
    expect(await log.all()).toHaveLength(3);
  });
});
