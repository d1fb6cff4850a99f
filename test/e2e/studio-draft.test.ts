import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, tool, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { REPO_FLOWS, startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { api } from './helpers.ts';

// "Describe your intake" against the repository's fake Anthropic server: the
// scripted model first drafts a flow with a guard error, gets the compiler's
// diagnostics back as the tool's result, and repairs it; the draft has no
// errors after the second round and its proposed goldens pass on it. The
// spend counts against the tenant's daily model budget.

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };

const flow = (guard: string) => ({
  version: 'v1', id: 'flow.bike_repair', label: 'Bike repair booking',
  nodes: [
    { id: 'q.name', type: 'question', key: 'name', prompt: 'What is your name?', answer: { type: 'text', kind: 'name', min: 2, max: 100 } },
    { id: 'q.electric', type: 'question', key: 'electric', prompt: 'Is it an e-bike?', answer: { type: 'boolean' } },
    { id: 'q.battery', type: 'question', key: 'battery', when: guard, prompt: 'Does the battery still charge?', answer: { type: 'boolean' } },
    { id: 'q.fault', type: 'question', key: 'fault', prompt: 'What is wrong with the bike?', answer: { type: 'text', min: 3, max: 500 } },
    { id: 'n.done', type: 'terminal', outcome: 'completed', say: 'Thanks, we will call you to book the repair.' },
  ],
});
const goldens = [
  { name: 'e-bike', turns: [{ user: 'Ann Lee', node: 'q.electric' }, { user: 'yes', node: 'q.battery' }, { user: 'no', node: 'q.fault' }] },
  { name: 'plain-bike', turns: [{ user: 'Bob Stone', node: 'q.electric' }, { user: 'no', node: 'q.fault' }] },
];

describe('Studio: draft a flow from a description (fake Anthropic)', () => {
  let fake: FakeAnthropic;
  let server: TestServer;
  let bare: TestServer;
  // a copy of flows/: a draft saved as a new file goes there
  const root = mkdtempSync(join(tmpdir(), 'questline-studio-draft-'));
  const flowsDir = join(root, 'flows');

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    cpSync(REPO_FLOWS, flowsDir, { recursive: true });
    [server, bare] = await Promise.all([
      startTestServer({ store: 'memory', env: { ANTHROPIC_API_KEY: 'sk-test-fake', ANTHROPIC_BASE_URL: fake.url, FLOWS_DIR: flowsDir } }),
      startTestServer({ store: 'memory', env: { ANTHROPIC_API_KEY: '' } }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
    await bare?.dispose();
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('repairs a guard error with the compiler\'s diagnostics and proposes goldens that pass', async () => {
    fake.script(
      tool('write_flow', { flow: flow('answers.is_electric == true'), goldens }),
      tool('write_flow', { flow: flow('answers.electric == true'), goldens }),
    );
    const res = await api(server.url, '/admin/draft', { body: { description: 'Book a bike repair: name, whether it is an e-bike (then ask about the battery), and what is wrong.', locale: 'en', tenant: 'acme' }, headers: admin });
    expect(res.status).toBe(200);
    expect(res.body.rounds).toBe(2);
    expect(res.body.diagnostics.filter((d: { severity: string }) => d.severity === 'error')).toEqual([]);
    expect(res.body.text).toContain('when: answers.electric == true');
    expect(res.body.goldens.map((g: { name: string; ok: boolean }) => [g.name, g.ok]), JSON.stringify(res.body.goldens)).toEqual([['e-bike', true], ['plain-bike', true]]);

    // the first request forced the tool; the second carried the compiler's diagnostics as the tool's result
    const [first, second] = fake.requests.slice(-2);
    expect(first!.body.tool_choice).toEqual({ type: 'tool', name: 'write_flow' });
    // the tool's input is the flow JSON Schema (its definitions at the root, where its references point)
    const input = first!.body.tools[0].input_schema;
    expect(input.required).toEqual(['flow', 'goldens']);
    expect(JSON.stringify(input.properties.flow)).toContain('#/$defs/');
    for (const ref of JSON.stringify(input).match(/#\/\$defs\/[^"]+/g) ?? []) expect(input.$defs[ref.slice('#/$defs/'.length)], ref).toBeDefined();
    const result = second!.body.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: 'tool_result', is_error: true });
    expect(result.content).toContain('is_electric');
  });

  it('stops repairing after three rounds and returns the last draft with its errors', async () => {
    fake.script(...Array.from({ length: 4 }, () => tool('write_flow', { flow: flow('answers.nope == 1'), goldens })));
    const res = await api(server.url, '/admin/draft', { body: { description: 'Book a bike repair with a broken guard forever.' }, headers: admin });
    expect(res.status).toBe(200);
    expect(res.body.rounds).toBe(4);
    expect(res.body.diagnostics.some((d: { severity: string }) => d.severity === 'error')).toBe(true);
    expect(fake.pending()).toBe(0);
  });

  it('without ANTHROPIC_API_KEY says what it needs; bad input names the field', async () => {
    const res = await api(bare.url, '/admin/draft', { body: { description: 'Book a bike repair appointment.' }, headers: admin });
    expect(res.status).toBe(501);
    expect(res.body.error.message).toContain('ANTHROPIC_API_KEY');
    const short = await api(bare.url, '/admin/draft', { body: { description: 'hi' }, headers: admin });
    expect(short.body.error).toMatchObject({ code: 'invalid_request', field: 'description' });
  });

  it('saves a draft as a new global flow (name checked), which is then an ordinary source to check and publish', async () => {
    fake.script(tool('write_flow', { flow: flow('answers.electric == true'), goldens }));
    const draft = await api(server.url, '/admin/draft', { body: { description: 'Book a bike repair: name, e-bike or not, what is wrong.' }, headers: admin });
    expect(draft.status).toBe(200);
    const text = draft.body.text as string;
    const PATH = 'global/bike-repair.flow.yaml';

    // names that are not a new file's
    for (const [path, why] of [
      ['global/Bike Repair.flow.yaml', /not a name for a new file/],
      ['global/../bike.flow.yaml', /not a flow or overlay under FLOWS_DIR/],
      ['global/patient-intake.flow.yaml', /exists already/],
      ['tenants/nobody/bike.json', /no tenant 'nobody'/],
      ['global/bike-repair.txt', /not a flow or overlay/],
    ] as const) {
      const res = await api(server.url, '/admin/sources', { body: { path, text }, headers: admin });
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatchObject({ code: 'invalid_request', field: 'path' });
      expect(res.body.error.message, path).toMatch(why);
    }
    // a draft with errors is not saved
    const broken = await api(server.url, '/admin/sources', { body: { path: 'global/bike-broken.flow.yaml', text: text.replace('answers.electric == true', 'answers.nope == 1') }, headers: admin });
    expect(broken.status).toBe(422);
    expect(existsSync(join(flowsDir, 'global/bike-broken.flow.yaml'))).toBe(false);

    const saved = await api(server.url, '/admin/sources', { body: { path: PATH, text, note: 'drafted' }, headers: admin });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ path: PATH, kind: 'global', flows: [], writtenBack: true });
    expect(readFileSync(join(flowsDir, PATH), 'utf8')).toBe(text);
    // the same flow id under another name is refused: ids are unique
    const twin = await api(server.url, '/admin/sources', { body: { path: 'global/bike-repair-2.flow.yaml', text }, headers: admin });
    expect(twin.status).toBe(422);
    expect(twin.body.diagnostics.map((d: { code: string }) => d.code)).toContain('duplicate_flow_id');
    // and it is listed, read, checked and published like any other source
    expect((await api(server.url, '/admin/sources', { headers: admin })).body).toContainEqual({ path: PATH, kind: 'global', flows: [] });
    const source = await api(server.url, `/admin/sources/${PATH}`, { headers: admin });
    expect(source.body).toMatchObject({ path: PATH, text, version: saved.body.version });
    const edited = text.replace('What is your name?', 'Who are we booking the repair for?');
    expect((await api(server.url, '/admin/check', { body: { path: PATH, text: edited }, headers: admin })).body.ok).toBe(true);
    const published = await api(server.url, '/admin/publish', { body: { path: PATH, text: edited, version: source.body.version }, headers: admin });
    expect(published.status).toBe(201);
    expect(readFileSync(join(flowsDir, PATH), 'utf8')).toContain('Who are we booking the repair for?');
  });

  it("saves a tenant's overlay into its folder: it feeds the tenant's flow at once", async () => {
    const overlay = JSON.stringify({ version: 'v1', layer: 'tenant', extends: 'flow.patient_intake', id: 'northside-clinic.phone_wording', nodes: [{ id: 'q.phone', prompt: 'Which phone number can the clinic call you back on?' }] }, null, 2);
    const res = await api(server.url, '/admin/sources', { body: { path: 'tenants/northside-clinic/phone-wording.json', text: overlay }, headers: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ kind: 'tenant', flows: [{ tenant: 'northside-clinic', flow: 'flow.patient_intake' }] });
    const revisions = await api(server.url, '/admin/tenants/northside-clinic/flows/flow.patient_intake/revisions', { headers: admin });
    expect(revisions.body.at(-1)).toMatchObject({ current: true, path: 'tenants/northside-clinic/phone-wording.json', kind: 'publish' });
  });

  it('with FLOWS_WRITE_BACK=0 a new file is kept under DATA_DIR: listed, read and served, not written to FLOWS_DIR', async () => {
    const kept = await startTestServer({ store: 'memory', env: { ANTHROPIC_API_KEY: '', FLOWS_DIR: flowsDir, FLOWS_WRITE_BACK: '0' } });
    try {
      const PATH = 'tenants/northside-clinic/kept-wording.json';
      const overlay = JSON.stringify({ version: 'v1', layer: 'tenant', extends: 'flow.patient_intake', id: 'northside-clinic.kept_wording', nodes: [{ id: 'q.notes', prompt: 'Anything else the clinic should know?' }] }, null, 2);
      const res = await api(kept.url, '/admin/sources', { body: { path: PATH, text: overlay }, headers: admin });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ writtenBack: false, flows: [{ tenant: 'northside-clinic', flow: 'flow.patient_intake' }] });
      expect(existsSync(join(flowsDir, PATH))).toBe(false);
      expect((await api(kept.url, '/admin/sources', { headers: admin })).body).toContainEqual({ path: PATH, kind: 'tenant', flows: [{ tenant: 'northside-clinic', flow: 'flow.patient_intake' }] });
      expect((await api(kept.url, `/admin/sources/${PATH}`, { headers: admin })).body.text).toBe(overlay);
      // served: the merged flow the tenant serves now has the overlay's prompt
      const check = await api(kept.url, '/admin/check', { body: { path: PATH, text: overlay }, headers: admin });
      const served = await api(kept.url, '/admin/tenants/northside-clinic/flows/flow.patient_intake/revisions', { headers: admin });
      expect(served.body.at(-1)).toMatchObject({ current: true, revision: check.body.flows[0].revision });
    } finally {
      await kept.dispose();
    }
  });
});
