import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { isLoopbackHost, withLocalAdminKey } from '../../server/local-admin-key.ts';
import { startServer } from '../../server/main.ts';
import { REPO_FLOWS } from '../support/server.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'questline-adminkey-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the admin key of a local npm start', () => {
  it('is generated once into DATA_DIR/admin-key (0600), read back on the next start, and opens the admin API', async () => {
    const dataDir = join(tempDir(), 'data');
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, LOG_LEVEL: 'silent' });
    expect(config.ADMIN_KEY).toBeUndefined();
    const first = withLocalAdminKey(config);
    expect(first.generated).toMatchObject({ created: true, file: join(dataDir, 'admin-key') });
    const key = first.config.ADMIN_KEY!;
    expect(Buffer.from(key, 'base64url').length).toBe(24);
    expect(readFileSync(join(dataDir, 'admin-key'), 'utf8').trim()).toBe(key);
    expect(statSync(join(dataDir, 'admin-key')).mode & 0o777).toBe(0o600);
    const again = withLocalAdminKey(config);
    expect(again.generated).toMatchObject({ created: false, key });

    const server = await startServer(first.config);
    try {
      const ok = await fetch(`${server.url}/api/v1/admin/tenants`, { headers: { 'x-questline-admin': key } });
      expect(ok.status).toBe(200);
      const wrong = await fetch(`${server.url}/api/v1/admin/tenants`, { headers: { 'x-questline-admin': 'x'.repeat(32) } });
      expect(wrong.status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('is not generated for a server reachable from elsewhere, one on Redis, or when ADMIN_KEY is set', () => {
    const dataDir = tempDir();
    const base = { PORT: '0', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS };
    expect(withLocalAdminKey(loadConfig({ ...base, HOST: '0.0.0.0' })).generated).toBeUndefined();
    expect(withLocalAdminKey(loadConfig({ ...base, HOST: '127.0.0.1', STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:1' })).generated).toBeUndefined();
    const chosen = withLocalAdminKey(loadConfig({ ...base, HOST: '127.0.0.1', ADMIN_KEY: 'my-own-admin-key-0123' }));
    expect(chosen.generated).toBeUndefined();
    expect(chosen.config.ADMIN_KEY).toBe('my-own-admin-key-0123');
    expect(() => readFileSync(join(dataDir, 'admin-key'))).toThrow();
    expect([isLoopbackHost('localhost'), isLoopbackHost('127.0.0.2'), isLoopbackHost('::1'), isLoopbackHost('192.168.1.5'), isLoopbackHost('0.0.0.0')]).toEqual([true, true, true, false, false]);
  });
});
