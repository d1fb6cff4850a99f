import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';

/** Runs the CLI in-process and captures what it prints. */
async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t.endsWith('\n') ? t : `${t}\n`), err: (t) => (err += t.endsWith('\n') ? t : `${t}\n`) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'questline-cli-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('questline validate', () => {
  it('exits 0 for every shipped flow', async () => {
    const r = await run('validate', 'flows');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/(\d+) of \1 flow files valid/);
    expect(r.err).toContain('flows/global/sales.flow.json');
    expect(r.err).toMatch(/(\d+) of \1 tenant files valid/);
    expect(r.err).toContain('ok flows/tenants/acme/tenant.json: tenant acme');
  });

  it('checks tenant.json files: the schema, and the flows folder they sit in, at file:line:col', async () => {
    const flows = join(dir, 'tenant-flows');
    mkdirSync(join(flows, 'tenants', 'shop'), { recursive: true });
    cpSync('flows/global', join(flows, 'global'), { recursive: true });
    const file = join(flows, 'tenants', 'shop', 'tenant.json');
    writeFileSync(file, '{\n  "id": "shop",\n  "name": "Shop",\n  "keys": ["pk_shop_demo"],\n  "origins": ["https://shop.example/"],\n  "flows": ["flow.sales"],\n  "llm": { "budget": { "token": 100 } }\n}\n');
    const bad = await run('validate', flows);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`${file}:5:15: error [schema] origins[0]`);
    expect(bad.err).toContain(`${file}:7:24: error [unknown_field] llm.budget: unknown field 'token' (did you mean 'tokens'?)`);
    expect(bad.err).toContain('0 of 1 tenant file valid');
    writeFileSync(file, '{\n  "id": "shop",\n  "name": "Shop",\n  "keys": ["pk_shop_demo"],\n  "origins": [],\n  "flows": ["flow.sales", "flow.nope"],\n  "packs": ["nopack"]\n}\n');
    const unknown = await run('validate', file);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(`${file}:6:27: error [unknown_flow]`);
    expect(unknown.err).toContain(`${file}:7:13: error [unknown_pack]`);
    writeFileSync(file, '{\n  "id": "shop",\n  "name": "Shop",\n  "keys": ["pk_shop_demo"],\n  "origins": [],\n  "flows": ["flow.sales"],\n  "llm": { "budget": { "calls": 10, "tokens": 20000 } }\n}\n');
    const ok = await run('validate', '--json', file);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ ok: true, tenants: [{ file, ok: true, id: 'shop', diagnostics: [] }] });
  });

  it('prints file:line:col: error for a dangling edge, naming both ids, and exits 1', async () => {
    const file = write('dangling.flow.json', `{
  "version": "v1",
  "id": "flow.d",
  "nodes": [
    { "id": "q.a", "type": "question", "key": "a", "prompt": "A?" }
  ],
  "edges": [
    { "from": "q.a", "to": "q.missing" }
  ]
}
`);
    const r = await run('validate', file);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${file}:8:28: error [dangling_edge]`);
    expect(r.err).toMatch(/'q\.a'.*'q\.missing'|'q\.missing'.*'q\.a'/);
  });

  it('reports a YAML flow error at its line', async () => {
    const file = write('bad.flow.yaml', 'version: v1\nid: flow.y\nnodes:\n  - id: q.a\n    type: question\n    key: a\n    when: "answers.b == 1"\n');
    const r = await run('validate', file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:\\d+: error \\[guard_unknown_answer_key\\]`));
  });

  it('--json prints one machine-readable report on stdout', async () => {
    const r = await run('validate', '--json', 'flows/global/sales.flow.json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({ ok: true, files: [{ kind: 'flow', id: 'flow.sales', ok: true }] });
    expect(report.files[0].revision).toMatch(/^[0-9a-f]{16}$/);
  });

  it('--outputs-schema prints the JSON Schema of the answers', async () => {
    const r = await run('validate', '--outputs-schema', 'flows/global/patient-intake.flow.yaml');
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.out);
    expect(schema.properties.date_of_birth).toBeDefined();
    expect(schema.properties.age.type).toBe('integer');
  });

  it('exits 2 on bad usage and 1 on a missing file', async () => {
    expect((await run('validate')).code).toBe(2);
    expect((await run('frobnicate')).code).toBe(2);
    const missing = await run('validate', join(dir, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no such file');
  });
});

describe('questline graph', () => {
  it('renders a flow as a Mermaid flowchart with subgraphs and guard labels', async () => {
    const r = await run('graph', 'flows/examples/seed-sales.flow.json', '--format', 'mermaid');
    expect(r.code).toBe(0);
    expect(r.out.startsWith('flowchart TD\n')).toBe(true);
    expect(r.out).toContain('subgraph n_subgraph_2e_led_path');
    expect(r.out).toContain(`|"answers.intention == 'buy_led'"|`);
    expect(r.out).toMatch(/n_q_2e_wattage --> n_subgraph_2e_led_path_2e___exit__/);
  });

  it('refuses an unknown format with exit 2 and an invalid flow with exit 1', async () => {
    expect((await run('graph', 'flows/global/sales.flow.json', '--format', 'svg')).code).toBe(2);
    const bad = write('bad-graph.flow.json', '{"version": "v1", "id": "x", "nodes": [{"id": "a", "type": "question", "key": "k"}], "edges": [{"from": "a", "to": "b"}]}');
    expect((await run('graph', bad)).code).toBe(1);
  });
});

describe('questline schema', () => {
  it('--check passes for the committed schema and fails for a stale copy', async () => {
    expect((await run('schema', '--check', 'flows/flow.schema.json')).code).toBe(0);
    const stale = write('stale.schema.json', '{}\n');
    expect((await run('schema', '--check', stale)).code).toBe(1);
  });
});

describe('the installed bin', () => {
  it('runs through npx-style invocation and returns the exit code', () => {
    const ok = execFileSync(process.execPath, ['bin/questline.js', 'validate', 'flows/global/newsletter.flow.json'], { encoding: 'utf8', stdio: 'pipe' });
    expect(ok).toBe('');
    const bad = spawnSync(process.execPath, ['bin/questline.js', 'validate', write('x.json', '{"version": "v1"}')], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('missing required field');
  });
});

describe('questline --help', () => {
  it('lists the commands and promises nothing that is already there as "(soon)"', async () => {
    const r = await run('--help');
    const text = r.out + r.err;
    for (const command of ['validate', 'graph', 'chat', 'run', 'test', 'serve']) expect(text).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    expect(text).not.toContain('(soon)');
  });
});
