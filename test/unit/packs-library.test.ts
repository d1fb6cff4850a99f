import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectiveFlow, loadLibrary } from '../../server/catalog/library.ts';
import type { FlowSource as FlowV1 } from '../../server/flow/schema.ts';
import { Tenant } from '../../server/catalog/tenant.ts';

const lib = loadLibrary('flows');
const errors = (list: ReadonlyArray<{ severity: string }>) => list.filter((d) => d.severity === 'error');
const allNodes = (ir: FlowV1) => [...ir.nodes, ...Object.values(ir.subgraphs ?? {}).flatMap((s) => s.nodes)];
const nodeOf = (ir: FlowV1, id: string) => allNodes(ir).find((n) => n.id === id) as Record<string, unknown> | undefined;

describe('the shipped flows folder', () => {
  it('finds the global flows, the lighting pack and both tenants without a single error', () => {
    expect(errors(lib.diagnostics)).toEqual([]);
    expect([...lib.flows.keys()].sort()).toEqual(['flow.newsletter', 'flow.patient_intake', 'flow.sales', 'flow.support_checklist']);
    expect([...lib.packs.keys()]).toEqual(['lighting']);
    expect([...lib.tenants.keys()]).toEqual(['acme', 'northside-clinic']);
    expect(lib.tenants.get('acme')!.tenant).toMatchObject({ keys: ['pk_acme_demo'], origins: ['http://localhost:3000', 'http://127.0.0.1:3000'], flows: ['flow.sales'], packs: ['lighting'] });
  });

  it('acme on flow.sales: prompts changed, a question added, one removed, enum options added; compiles with no errors', () => {
    const r = effectiveFlow(lib, 'flow.sales', 'acme');
    expect(errors(r.diagnostics)).toEqual([]);
    expect(r.flow).toBeDefined();
    const ir = r.ir!;
    expect(nodeOf(ir, 'n.start')!.say).toEqual({ en: 'Hi there! Welcome to Acme Lighting.', de: 'Hallo! Willkommen bei Acme Lighting.' });
    expect(nodeOf(ir, 'q.intent')!.prompt).toMatchObject({ en: expect.stringMatching(/^Are you after new LED lighting/), de: expect.stringMatching(/^Suchen Sie neue LED-Beleuchtung/) });
    expect(nodeOf(ir, 'q.wattage')).toBeUndefined();
    expect(ir.subgraphs!['subgraph.led_path']!.nodes.map((n) => n.id)).toEqual([
      'q.court_size', 'q.sport', 'q.current_lighting', 'q.venue', 'n.venue_route', 'q.pole_count', 'q.broadcast', 'q.mounting_height', 'q.install_date',
    ]);
    const venue = nodeOf(ir, 'q.venue')!.answer as { options: Array<{ value: string }> };
    expect(venue.options.map((o) => o.value)).toEqual(['court', 'school_gym', 'arena', 'stadium', 'training_facility', 'community_centre']);
    expect(r.flow!.keys.has('install_date')).toBe(true);
    expect(r.flow!.keys.has('wattage')).toBe(false);
  });

  it('acme: every field knows its layer', () => {
    const { provenance } = effectiveFlow(lib, 'flow.sales', 'acme');
    expect(provenance['nodes.q.intent.prompt']).toBe('tenant acme (flows/tenants/acme/sales.json)');
    expect(provenance['nodes.q.intent.key']).toBe('global (flows/global/sales.flow.json)');
    expect(provenance['nodes.q.current_lighting.prompt']).toBe('industry lighting (flows/packs/lighting/sales.json)');
    expect(provenance['nodes.q.venue.answer.options']).toBe('tenant acme (flows/tenants/acme/sales.json)');
    expect(provenance['edges.e.sport.venue.to']).toBe('industry lighting (flows/packs/lighting/sales.json)');
    expect(Object.keys(provenance).some((k) => k.startsWith('nodes.q.wattage.'))).toBe(false);
  });

  it('northside-clinic on flow.patient_intake compiles with no errors and carries its changes', () => {
    const r = effectiveFlow(lib, 'flow.patient_intake', 'northside-clinic');
    expect(errors(r.diagnostics)).toEqual([]);
    expect(r.flow).toBeDefined();
    expect(nodeOf(r.ir!, 'q.full_name')!.say).toMatch(/Northside Community Clinic/);
    expect(nodeOf(r.ir!, 'q.full_name')!.ui).toEqual({ group: 'identity', colour: 'teal' });
    expect(r.ir!.commands!.human).toEqual(['human', 'receptionist', 'front desk', 'talk to someone', 'nurse', 'reception']);
    expect(r.report.layers.map((l) => l.name)).toEqual(['global', 'tenant northside-clinic']);
  });

  it('without a tenant the effective flow is the global one, unchanged', () => {
    const r = effectiveFlow(lib, 'flow.sales');
    expect(r.report.changes).toEqual([]);
    expect(r.flow!.revision).toBe(lib.flows.get('flow.sales')!.flow!.revision);
  });

  it('applies instance overrides after the tenant', () => {
    const r = effectiveFlow(lib, 'flow.sales', 'acme', {
      instance: [{ version: 'v1', layer: 'instance', extends: 'flow.sales', nodes: [{ id: 'q.intent', prompt: 'Kiosk: what do you need?' }] }],
    });
    expect(nodeOf(r.ir!, 'q.intent')!.prompt).toBe('Kiosk: what do you need?');
    expect(r.report.changes.at(-1)).toMatchObject({ layer: 'instance', id: 'q.intent', field: 'prompt', replaces: 'tenant acme (flows/tenants/acme/sales.json)' });
  });

  it('refuses a flow the tenant does not offer, an unknown tenant and an unknown flow', () => {
    expect(effectiveFlow(lib, 'flow.sales', 'northside-clinic').diagnostics).toMatchObject([{ code: 'flow_not_offered' }]);
    expect(effectiveFlow(lib, 'flow.sales', 'nobody').diagnostics).toMatchObject([{ code: 'unknown_tenant' }]);
    expect(effectiveFlow(lib, 'flow.nope').diagnostics).toMatchObject([{ code: 'unknown_flow' }]);
  });
});

describe('a broken flows folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'questline-lib-'));
  mkdirSync(join(dir, 'global'));
  cpSync('flows/global/sales.flow.json', join(dir, 'global', 'sales.flow.json'));
  writeFileSync(join(dir, 'global', 'broken.flow.json'), '{ "version": "v1", ');
  const tenant = (name: string, body: unknown, files: Record<string, string> = {}) => {
    mkdirSync(join(dir, 'tenants', name), { recursive: true });
    writeFileSync(join(dir, 'tenants', name, 'tenant.json'), typeof body === 'string' ? body : JSON.stringify(body));
    for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, 'tenants', name, f), text);
  };
  const ok = { name: 'X', keys: ['pk_shared_key'], origins: ['http://localhost:3000'], flows: ['flow.sales'] };
  tenant('good', { id: 'good', ...ok }, { 'sales.json': '{"version":"v1","layer":"industry","extends":"flow.sales"}' });
  tenant('copycat', { id: 'copycat', ...ok });
  tenant('misnamed', { id: 'other', ...ok, keys: ['pk_misnamed'] });
  tenant('garbled', '{ "id": ');
  tenant('packless', { id: 'packless', ...ok, keys: ['pk_packless'], packs: ['plumbing'] });

  it('loads without throwing and reports every problem as a diagnostic', () => {
    const broken = loadLibrary(dir);
    expect(broken.flows.has('flow.sales')).toBe(true);
    const codes = broken.diagnostics.map((d) => d.code).sort();
    expect(codes).toEqual(['duplicate_tenant_key', 'layer_mismatch', 'parse_error', 'parse_error', 'tenant_id_mismatch', 'unknown_pack']);
  });

  it('a tenant with a broken overlay gets diagnostics, not a flow', () => {
    const r = effectiveFlow(loadLibrary(dir), 'flow.sales', 'good');
    expect(r.flow).toBeUndefined();
    expect(r.diagnostics).toMatchObject([{ code: 'layer_mismatch', file: join(dir, 'tenants', 'good', 'sales.json'), line: 1 }]);
  });

  it('a folder that does not exist is an empty library', () => {
    const none = loadLibrary(join(dir, 'missing'));
    expect(none.flows.size + none.packs.size + none.tenants.size).toBe(0);
  });
});

describe('tenant file schema', () => {
  const valid = { id: 'acme', name: 'Acme', keys: ['pk_acme_demo'], origins: ['https://acme.example'], flows: ['flow.sales'] };

  it('accepts the interfaces.md shape and defaults packs to none', () => {
    const t = Tenant().parse({ ...valid, webhook: { url: 'https://crm.example/hooks', secret: 'whsec_123456' }, llm: { model: 'm', budget: { calls: 40 } } });
    expect(t.packs).toEqual([]);
  });

  it('rejects an origin with a path, an unknown field and an upper-case id', () => {
    expect(Tenant().safeParse({ ...valid, origins: ['https://acme.example/app'] }).success).toBe(false);
    expect(Tenant().safeParse({ ...valid, colour: 'red' }).success).toBe(false);
    expect(Tenant().safeParse({ ...valid, id: 'Acme' }).success).toBe(false);
  });
});
