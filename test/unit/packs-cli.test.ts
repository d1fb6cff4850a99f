import { describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';

/** Runs the CLI in-process and captures what it prints. */
async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t.endsWith('\n') ? t : `${t}\n`), err: (t) => (err += t.endsWith('\n') ? t : `${t}\n`) });
  return { code, out, err };
}

const CONFLICT = 'test/fixtures/packs/conflict/tenants/rogue/sales.json';

describe('questline merge', () => {
  it('--tenant acme flow.sales prints the effective flow as JSON and exits 0', async () => {
    const r = await run('merge', '--tenant', 'acme', 'flow.sales');
    expect(r.code).toBe(0);
    const flow = JSON.parse(r.out);
    expect(flow.id).toBe('flow.sales');
    // Acme words its welcome and its first prompt in both of the flow's languages
    expect(flow.nodes.find((n: { id: string }) => n.id === 'n.start').say).toEqual({ en: 'Hi there! Welcome to Acme Lighting.', de: 'Hallo! Willkommen bei Acme Lighting.' });
    expect(flow.nodes.find((n: { id: string }) => n.id === 'q.intent').prompt).toMatchObject({ en: expect.stringMatching(/^Are you after new LED lighting/), de: expect.stringMatching(/^Suchen Sie neue LED-Beleuchtung/) });
    expect(JSON.stringify(flow)).not.toContain('q.wattage');
    expect(r.err).toMatch(/^ok flow\.sales \(revision [0-9a-f]{16}\): 17 changes from 3 layers$/m);
  });

  it('--report lists exactly the pack\'s and the tenant\'s changes, each with its layer', async () => {
    const r = await run('merge', '--tenant', 'acme', 'flow.sales', '--report', '--json');
    expect(r.code).toBe(0);
    const { ok, report } = JSON.parse(r.out);
    expect(ok).toBe(true);
    expect(report.changes.map((e: Record<string, string>) => `${e.layer} | ${e.action} ${e.target} ${e.id} ${e.field} | ${e.strategy}`)).toEqual([
      'industry lighting | change flow flow.sales paths.options.buy_led.examples | concat',
      'industry lighting | add node q.current_lighting  | override',
      'industry lighting | change node q.mounting_height prompt | override',
      'industry lighting | change node q.safety_hazard prompt | override',
      'industry lighting | change node q.venue answer.options | concat',
      'industry lighting | add edge e.current_lighting.venue  | override',
      'industry lighting | change edge e.sport.venue to | override',
      'tenant acme | change node n.start say | override',
      'tenant acme | change node q.budget prompt | override',
      'tenant acme | add node q.install_date  | override',
      'tenant acme | change node q.intent prompt | override',
      'tenant acme | change node q.venue answer.options | concat',
      'tenant acme | remove node q.wattage  | override',
      'tenant acme | add edge e.height.install_date  | override',
      'tenant acme | remove edge e.height.wattage  | override',
      'tenant acme | add edge e.install_date.exit  | override',
      'tenant acme | remove edge e.wattage.exit  | override',
    ]);
    expect(report.conflicts).toEqual([]);
    expect(report.changes.find((e: { id: string }) => e.id === 'e.height.wattage').cause).toBe('node q.wattage removed');
  });

  it('--report prints one readable line per change', async () => {
    const r = await run('merge', '--tenant', 'acme', 'flow.sales', '--report');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'merge report for flow.sales',
      'layers:',
      '  1. global  flows/global/sales.flow.json',
      '  2. industry lighting  flows/packs/lighting/sales.json',
      '  3. tenant acme  flows/tenants/acme/sales.json',
    ]);
    expect(lines).toContain('  - [tenant acme] node q.wattage: removed');
    expect(lines).toContain('  + [tenant acme] node q.install_date: question, subgraph.led_path after q.mounting_height');
    expect(lines).toContain('  - [tenant acme] edge e.wattage.exit: q.wattage -> __exit__ (node q.wattage removed)');
    expect(lines.find((l) => l.includes('[tenant acme] node q.venue answer.options'))).toMatch(/: \+ \[\{"value":"community_centre".*\(concat; over industry lighting\)$/);
    expect(lines).toContain('conflicts: none');
  });

  it('--layers merges explicit files, the base flow found from a flow file among them', async () => {
    const r = await run('merge', '--layers', 'flows/tenants/acme/sales.json', 'flows/global/sales.flow.json', '--report', '--json');
    expect(r.code).toBe(0);
    const { report } = JSON.parse(r.out);
    expect(report.layers.map((l: { name: string }) => l.name)).toEqual(['global', 'tenant acme']);
    expect(report.changes).toHaveLength(10);
  });

  it('--layers finds the base by the id the overlays extend when no flow file is given', async () => {
    const r = await run('merge', '--layers', 'flows/packs/lighting/sales.json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).nodes.length).toBeGreaterThan(0);
  });

  it('a layer that changes a field the pack marks error exits 1 with the conflict at file:line:col', async () => {
    const r = await run('merge', 'flow.sales', '--layers', 'flows/packs/lighting/sales.json', CONFLICT);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain(`${CONFLICT}:10:17: error [merge_conflict] merge conflict: tenant rogue cannot change nodes.q.safety_hazard.prompt: ` +
      'industry lighting (flows/packs/lighting/sales.json) marks "nodes.q.safety_hazard.prompt" as "error"');
    expect(r.err).toMatch(/merge failed: 1 conflict$/m);
  });

  it('--report still prints the report, conflicts included, when the merge fails', async () => {
    const r = await run('merge', 'flows/global/sales.flow.json', '--layers', CONFLICT, 'flows/packs/lighting/sales.json', '--report');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^conflicts \(1\):\n {2}! \[tenant rogue\] node q\.safety_hazard prompt: refused: industry lighting/m);
  });

  it('--json prints the flow, its revision, the report and provenance in one object', async () => {
    const r = await run('merge', '--tenant', 'northside-clinic', 'flow.patient_intake', '--json');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body).toMatchObject({ ok: true, id: 'flow.patient_intake', diagnostics: [] });
    expect(body.revision).toMatch(/^[0-9a-f]{16}$/);
    expect(body.provenance['nodes.q.consent.prompt']).toBe('tenant northside-clinic (flows/tenants/northside-clinic/patient-intake.json)');
    expect(body.report.changes).toHaveLength(5);
  });

  it('accepts a flow file path with --tenant', async () => {
    const r = await run('merge', 'flows/global/sales.flow.json', '--tenant', 'acme', '--report', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).report.changes).toHaveLength(17);
  });

  it.each([
    [['merge'], /give a flow/],
    [['merge', '--tenant', 'nobody', 'flow.sales'], /no tenant 'nobody' under flows\/tenants/],
    [['merge', '--tenant', 'acme', 'flow.nope'], /no flow file or flow id 'flow\.nope'/],
    [['merge', '--tenant', 'acme', '--layers', 'flows/tenants/acme/sales.json', 'flow.sales'], /--tenant or --layers, not both/],
    [['merge', '--layers', 'flows/tenants/acme/missing.json'], /no such file/],
  ])('exits 2 on bad usage: %j', async (argv, message) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });

  it('exits 1 when the tenant does not offer the flow', async () => {
    const r = await run('merge', '--tenant', 'northside-clinic', 'flow.sales');
    expect(r.code).toBe(1);
    expect(r.err).toContain('flows/tenants/northside-clinic/tenant.json: error [flow_not_offered]');
  });
});
