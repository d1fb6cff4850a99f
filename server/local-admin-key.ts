import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from './config.ts';

/** Where the generated key lives, beside the sessions it guards. */
export const LOCAL_ADMIN_KEY_FILE = 'admin-key';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether HOST keeps the server on this machine (then a generated key is as private as the data dir). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.trim().toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host.trim());
}

/**
 * `npm start` on a laptop should open the operator console without a setup
 * step: when ADMIN_KEY is unset, the server listens on loopback only and
 * keeps its sessions in DATA_DIR (lowdb), a random 192-bit key is made once
 * and kept in `DATA_DIR/admin-key` (mode 0600), so it survives restarts.
 * A server reachable from elsewhere (HOST=0.0.0.0) or sharing Redis gets no
 * generated key: its admin endpoints stay closed until ADMIN_KEY is set.
 */
export function withLocalAdminKey(config: Config): { config: Config; generated?: { file: string; key: string; created: boolean } } {
  if (config.ADMIN_KEY || config.OPERATOR_KEYS?.length || !isLoopbackHost(config.HOST) || config.STORE !== 'lowdb') return { config };
  const dir = resolve(config.DATA_DIR);
  const file = join(dir, LOCAL_ADMIN_KEY_FILE);
  let key = '';
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch {
    // not made yet
  }
  const created = key.length < 16;
  if (created) {
    key = randomBytes(24).toString('base64url');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
  }
  return { config: { ...config, ADMIN_KEY: key }, generated: { file, key, created } };
}
