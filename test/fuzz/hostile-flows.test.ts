import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { REPO_FLOWS, RELAXED_LIMITS } from '../support/server.ts';
import { ACME_KEY, api } from '../e2e/helpers.ts';
import { recordTally } from '../reliability/tally.ts';

// Hostile flows (the foundation issue's list: prototype access, host names,
// catastrophic regexes, nesting and size bombs, YAML alias bombs, traps)
// dropped into a copy of the flows folder, next to good flows: `questline
// validate` reports each of them and exits 1 without hanging; the server
// reports them at start, does not serve them, and serves everything else.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'pk_mallory_fuzz';

const question = (guard: string) => ({
  version: 'v1', nodes: [{ id: 'q', type: 'question', key: 'name' }, { id: 'a', type: 'terminal' }, { id: 'b', type: 'terminal' }],
  edges: [{ from: 'q', to: 'a', guard }, { from: 'q', to: 'b', guard: 'else' }],
});

/** file name → content; each defines flow `flow.evil_<n>`. */
function hostileFlows(): Record<string, string> {
  const files: Record<string, string> = {};
  const guards = [
    'answers.__proto__.polluted == 1',
    "answers['constructor'] == null",
    'process.exit(1)',
    'globalThis.fetch == null',
    'this == null',
    `${'('.repeat(5_000)}true${')'.repeat(5_000)}`,
    Array(6_000).fill('has(answers.name)').join(' || '),
    "matches(answers.name, '(a+)+$') && matches(answers.name, '(?=a)')",
    "matches(answers.name, answers.name)",
    `'${'x'.repeat(100_000)}' == answers.name`,
  ];
  guards.forEach((guard, i) => {
    files[`evil-guard-${i}.flow.json`] = JSON.stringify({ ...question(guard), id: `flow.evil_${i}` });
  });
  files['evil-validate.flow.json'] = JSON.stringify({
    version: 'v1', id: 'flow.evil_validate',
    nodes: [{ id: 'q', type: 'question', key: 'name', validate: 'value.constructor.constructor("return process")() == null' }, { id: 'end', type: 'terminal' }],
  });
  files['evil-trap.flow.json'] = JSON.stringify({
    version: 'v1', id: 'flow.evil_trap',
    nodes: [{ id: 'q1', type: 'question', key: 'a' }, { id: 'q2', type: 'question', key: 'b' }, { id: 'end', type: 'terminal' }],
    edges: [{ from: 'q1', to: 'q2' }, { from: 'q2', to: 'q1' }],
  });
  files['evil-deep.flow.json'] = `{"version": "v1", "id": "flow.evil_deep", "nodes": [], "ui": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
  files['evil-huge.flow.json'] = `{"version": "v1", "id": "flow.evil_huge", "label": "${'a'.repeat(3 * 1024 * 1024)}", "nodes": []}`;
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
  files['evil-bomb.flow.yaml'] = `${bomb.join('\n')}\nversion: v1\nid: flow.evil_bomb\nnodes: []\n`;
  files['evil-proto-key.flow.json'] = '{"version": "v1", "id": "flow.evil_proto", "__proto__": {"polluted": true}, "nodes": [{"id": "q", "type": "question", "key": "__proto__"}]}';
  files['evil-binary.flow.json'] = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3, 0x28]).toString('latin1');
  return files;
}

let flowsDir: string;
let dataDir: string;
let server: RunningServer;
const logs: string[] = [];
let hostileIds: string[] = [];

beforeAll(async () => {
  flowsDir = mkdtempSync(join(tmpdir(), 'questline-hostile-flows-'));
  dataDir = mkdtempSync(join(tmpdir(), 'questline-hostile-data-'));
  cpSync(REPO_FLOWS, flowsDir, { recursive: true });
  const files = hostileFlows();
  mkdirSync(join(flowsDir, 'evil'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(flowsDir, 'global', name), text, name.includes('binary') ? 'latin1' : 'utf8');
    writeFileSync(join(flowsDir, 'evil', name), text, name.includes('binary') ? 'latin1' : 'utf8');
  }
  hostileIds = Object.keys(files).map((name) => `flow.evil_${name.replace(/^evil-(guard-)?/, '').replace(/\.flow\.\w+$/, '').replace('proto-key', 'proto')}`);
  mkdirSync(join(flowsDir, 'tenants', 'mallory'), { recursive: true });
  writeFileSync(join(flowsDir, 'tenants', 'mallory', 'tenant.json'), JSON.stringify({
    id: 'mallory', name: 'Mallory', keys: [KEY], origins: ['http://localhost:3000'], flows: ['flow.newsletter', ...hostileIds],
  }));
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: flowsDir }), { logger: createLogger('info', sink), rateLimits: RELAXED_LIMITS });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(flowsDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('hostile flows', () => {
  it('questline validate reports every one of them, exits 1 and does not hang', () => {
    const r = spawnSync(process.execPath, ['bin/questline.js', 'validate', join(flowsDir, 'evil'), '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as { files?: Array<{ file: string; ok?: boolean; diagnostics: Array<{ severity: string }> }> } | Array<{ file: string; diagnostics: Array<{ severity: string }> }>;
    const files = Array.isArray(report) ? report : (report.files ?? []);
    const withErrors = files.filter((f) => f.diagnostics.some((d) => d.severity === 'error')).map((f) => f.file.split('/').pop());
    expect(withErrors.sort()).toEqual(Object.keys(hostileFlows()).sort());
    recordTally('hostile_flows', { hostile_flows: withErrors.length });
    expect(Object.prototype).not.toHaveProperty('polluted');
  }, 60_000);

  it('the server reports them at start, serves none of them, and serves the good flows', async () => {
    const text = logs.join('');
    expect(text).toMatch(/tenant mallory: flow flow\.evil_0 is not served/);
    const flows = await api(server.url, '/tenants/mallory/flows', { headers: { 'x-questline-key': KEY } });
    expect(flows.status).toBe(200);
    const listed = flows.body.flows as Array<{ id: string; available: boolean; revision?: string }>;
    expect(listed.find((f) => f.id === 'flow.newsletter')).toMatchObject({ available: true });
    // listed as the tenant configured them, but not available and without a revision
    for (const id of hostileIds) expect(listed.find((f) => f.id === id), id).toMatchObject({ id, available: false, reason: expect.stringContaining('does not compile') });
    let refused = 0;
    for (const id of hostileIds) {
      const r = await api(server.url, '/tenants/mallory/sessions', { body: { flow: id }, headers: { 'x-questline-key': KEY } });
      expect(r.status, id).toBeGreaterThanOrEqual(400);
      expect(r.status, id).toBeLessThan(600);
      expect(['flow_unavailable', 'unknown_flow']).toContain(r.body.error.code);
      refused++;
    }
    expect(refused).toBe(hostileIds.length);
    const good = await api(server.url, '/tenants/mallory/sessions', { body: { flow: 'flow.newsletter' }, headers: { 'x-questline-key': KEY } });
    expect(good.status).toBe(201);
    const acme = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
    expect(acme.status).toBe(201);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
