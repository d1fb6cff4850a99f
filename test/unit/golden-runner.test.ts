import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';
import { loadLibrary } from '../../server/catalog/library.ts';
import { coverageFor, coverageReport, recordCoverage } from '../../server/golden/coverage.ts';
import { discoverJobs } from '../../server/golden/discover.ts';
import { resultLines } from '../../server/golden/report.ts';
import { runGolden, snapshotPath } from '../../server/golden/run-golden.ts';

const FLOW = {
  version: 'v1', id: 'flow.g',
  nodes: [
    { id: 'q.name', type: 'question', key: 'name', prompt: 'Your name?' },
    { id: 'q.age', type: 'question', key: 'age', prompt: 'Your age?', answer: { type: 'integer', min: 0, max: 120 } },
    { id: 'n.adult', type: 'terminal' }, { id: 'n.minor', type: 'terminal', outcome: 'minor' },
  ],
  edges: [
    { from: 'q.name', to: 'q.age' }, { from: 'q.age', to: 'n.minor', guard: 'answers.age < 18' }, { from: 'q.age', to: 'n.adult', guard: 'else' },
  ],
};

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'questline-golden-'));
  writeFileSync(join(dir, 'g.flow.json'), JSON.stringify(FLOW, null, 2));
  const golden = (name: string, body: string) => {
    const file = join(dir, `${name}.golden.yaml`);
    writeFileSync(file, body);
    return file;
  };
  return { dir, golden };
}

const HAPPY = `name: adult
flow: g.flow.json
turns:
  - user: "Ann"
    expect: { node: q.age, answers: { name: Ann } }
  - user: "forty"
    expect: { answers: { age: 40 }, say: "/thank you/i" }
end:
  status: completed
  outcome: completed
`;

describe('golden runner', () => {
  it('passes a correct golden and writes its trace snapshot on a local run', async () => {
    const { golden } = workspace();
    const file = golden('adult', HAPPY);
    const r = await runGolden(file);
    expect(resultLines(r).join('\n')).toContain('✓ adult');
    expect(r.passed).toBe(true);
    expect(r.snapshot).toBe('written');
    const snap = readFileSync(snapshotPath(file), 'utf8');
    expect(snap).toContain('t2 answer_set @q.age {"confidence":1,"extractor":"rules","key":"age","source":"user","value":40}');
    expect((await runGolden(file)).snapshot).toBe('matched');
  });

  it('reports the file and line, the turn and user text, expected vs actual per field, and the trace of the turn', async () => {
    const { golden } = workspace();
    const file = golden('wrong', HAPPY.replace('answers: { age: 40 }', 'answers: { age: "40" }').replace('node: q.age,', 'node: q.nope,'));
    const r = await runGolden(file);
    expect(r.passed).toBe(false);
    const text = resultLines(r).join('\n');
    expect(text).toContain(`${file}:4: turn 1 — user: "Ann"`);
    expect(text).toContain('node: expected "q.nope", got "q.age" — the conversation is at another node');
    expect(text).toContain(`${file}:6: turn 2 — user: "forty"`);
    expect(text).toContain('answers.age: expected "40", got 40 — different type (string expected, number committed)');
    expect(text).toContain('trace of turn 2:');
    expect(text).toMatch(/answer_set @q\.age key="age" value=40/);
  });

  it('checks say as exact text or /regex/, events as a subset, and the end block', async () => {
    const { golden } = workspace();
    const r = await runGolden(golden('checks', `flow: g.flow.json
turns:
  - user: "Ann"
    expect: { say: "Your age", events: [answer_set, path_lock] }
  - user: "12"
end: { status: completed, outcome: grown_up, answers: { age: 12, name: Bob } }
`));
    const fields = r.failures.flatMap((f) => f.mismatches.map((m) => m.field));
    expect(fields).toEqual(['say', 'events', 'end.outcome', 'end.answers.name']);
  });

  it('fails a changed trace until --update accepts it, and a missing snapshot under CI', async () => {
    const { golden } = workspace();
    const file = golden('snap', HAPPY);
    await runGolden(file);
    writeFileSync(snapshotPath(file), readFileSync(snapshotPath(file), 'utf8').replace('"value":40', '"value":41'));
    const changed = await runGolden(file);
    expect(changed.passed).toBe(false);
    expect(changed.failures[0]).toMatchObject({ turn: 'trace' });
    expect(resultLines(changed).join('\n')).toContain('questline test --update');
    expect((await runGolden(file, { update: true })).snapshot).toBe('updated');
    expect((await runGolden(file)).passed).toBe(true);
    const fresh = golden('fresh', HAPPY);
    const ci = await runGolden(fresh, { ci: true });
    expect(ci.passed).toBe(false);
    expect(ci.snapshot).toBe('missing');
    expect(existsSync(snapshotPath(fresh))).toBe(false);
  });

  it('starts mid-flow from given answers and fixes the clock with now', async () => {
    const { golden } = workspace();
    const r = await runGolden(golden('given', `flow: g.flow.json
now: 2026-03-01T09:00:00Z
given: { answers: { name: Ann } }
turns:
  - user: "10"
    expect: { answers: { age: 10, name: Ann } }
end: { status: completed, outcome: minor }
`));
    expect(r.passed, resultLines(r).join('\n')).toBe(true);
  });

  it('replays recorded LLM tool calls through the same validation', async () => {
    const { golden } = workspace();
    const r = await runGolden(golden('replay', `flow: g.flow.json
extractor: replay
turns:
  - user: "I'm Ann and I'm 200"
    llm:
      - { tool: update_answers, input: { name: Ann, age: 200, favourite: blue } }
    expect: { node: q.age, answers: { name: Ann }, events: [llm_proposal_rejected] }
  - user: "sorry, 20"
    llm: { update_answers: { age: 20 } }
    expect: { answers: { age: 20 } }
end: { status: completed }
`));
    expect(r.passed, resultLines(r).join('\n')).toBe(true);
  });

  it('reports a golden that cannot load with its position', async () => {
    const { golden } = workspace();
    const r = await runGolden(golden('bad', 'flow: g.flow.json\nturns:\n  - usr: hi\n'));
    expect(r.passed).toBe(false);
    expect(resultLines(r).join('\n')).toMatch(/bad\.golden\.yaml:3:\d+: error \[unknown_field\]/);
  });
});

describe('coverage', () => {
  it('counts nodes, edges and guard arms the goldens exercised and lists the rest', async () => {
    const { golden } = workspace();
    const r = await runGolden(golden('adult', HAPPY));
    const map = new Map();
    recordCoverage(coverageFor(map, r.flow!), r.events);
    const report = coverageReport([...map.values()][0]);
    expect(report.nodes).toMatchObject({ covered: 3, total: 4, missing: ['n.minor'] });
    expect(report.edges).toMatchObject({ covered: 2, total: 3, missing: ['q.age->n.minor'] });
    expect(report.guardArms).toMatchObject({ covered: 1, total: 2, missing: ['q.age->n.minor:true'] });
  });
});

/** A flows folder: the global flow.g with its golden `adult`, and tenant acme serving flow.g (it inherits the golden). */
function inheritingTenant(): string {
  const flows = join(mkdtempSync(join(tmpdir(), 'questline-inherit-')), 'flows');
  mkdirSync(join(flows, 'global'), { recursive: true });
  mkdirSync(join(flows, 'tenants', 'acme'), { recursive: true });
  writeFileSync(join(flows, 'global', 'g.flow.json'), JSON.stringify(FLOW, null, 2));
  writeFileSync(join(flows, 'global', 'adult.golden.yaml'), HAPPY);
  writeFileSync(join(flows, 'tenants', 'acme', 'tenant.json'), JSON.stringify({ id: 'acme', name: 'Acme', keys: ['pk_acme_test'], origins: ['http://localhost:3000'], flows: ['flow.g'] }));
  return flows;
}

describe('inherited goldens', () => {
  it("re-runs the global goldens of a tenant's flow on its merged flow, with its declared overrides", async () => {
    const flows = inheritingTenant();
    writeFileSync(join(flows, 'tenants', 'acme', 'g.json'), JSON.stringify({ version: 'v1', layer: 'tenant', extends: 'flow.g', nodes: [{ id: 'q.age', prompt: 'How old are you?' }] }));
    const library = loadLibrary(flows);
    const check = async () => {
      const { jobs, problems } = discoverJobs([flows], library);
      expect(problems).toEqual([]);
      const inherited = jobs.find((j) => j.tenant === 'acme')!;
      expect(inherited.file).toBe(join(flows, 'global', 'adult.golden.yaml'));
      return runGolden(inherited.file, { library, tenant: 'acme', overrides: inherited.overrides ?? [], noSnapshot: true });
    };
    // an unintended change: a golden expecting the old prompt would fail
    writeFileSync(join(flows, 'global', 'adult.golden.yaml'), HAPPY.replace('expect: { node: q.age, answers: { name: Ann } }', 'expect: { node: q.age, say: "Your age?" }'));
    expect((await check()).passed).toBe(false);
    // the tenant declares the divergence: now it passes, and the global golden itself still does
    writeFileSync(join(flows, 'tenants', 'acme', 'goldens.yaml'), 'overrides:\n  - golden: adult\n    turn: 1\n    expect: { node: q.age, say: "How old are you?" }\n');
    const passed = await check();
    expect(passed.passed, resultLines(passed).join('\n')).toBe(true);
    expect((await runGolden(join(flows, 'global', 'adult.golden.yaml'), { library })).passed).toBe(true);
  });
});

describe('tenant golden declarations', () => {
  it('reports a skip or override naming a golden the tenant does not inherit, or a turn it does not have', () => {
    const flows = inheritingTenant();
    const declare = (yaml: string) => {
      writeFileSync(join(flows, 'tenants', 'acme', 'goldens.yaml'), yaml);
      return discoverJobs([flows], loadLibrary(flows)).problems;
    };
    expect(declare('overrides:\n  - golden: adult\n    turn: 1\n    expect: { node: q.age }\n')).toEqual([]);
    expect(declare('overrides:\n  - golden: adlut\n    turn: 1\n    expect: { node: q.age }\n'))
      .toEqual([expect.stringMatching(/overrides\[0\] names golden 'adlut', which this tenant does not inherit \(it inherits: adult/)]);
    expect(declare('overrides:\n  - golden: adult\n    turn: 40\n    expect: { node: q.age }\n'))
      .toEqual([expect.stringMatching(/overrides\[0\] names turn 40 of 'adult', which has \d+ turns/)]);
    expect(declare('skip:\n  - golden: nope\n    reason: gone\n')).toEqual([expect.stringMatching(/skip\[0\] names golden 'nope'/)]);
  });
});

describe('questline test', () => {
  it('runs goldens, prints coverage, and exits 1 on a failure', async () => {
    const { dir, golden } = workspace();
    await runGolden(golden('adult', HAPPY)); // writes the snapshot, as a first local run would
    let out = '';
    const io = { out: (t: string) => (out += `${t}\n`), err: (t: string) => (out += `${t}\n`) };
    expect(await main(['test', dir, '--coverage', '--flows', resolve('flows')], io)).toBe(0);
    expect(out).toContain('1 passed, 0 failed');
    expect(out).toMatch(/flow\.g \(revision [0-9a-f]+\)\n\s+nodes\s+75%\s+3\/4/);
    expect(out).toContain('never exercised edges: q.age->n.minor');
    cpSync(join(dir, 'adult.golden.yaml'), join(dir, 'broken.golden.yaml'));
    writeFileSync(join(dir, 'broken.golden.yaml'), HAPPY.replace('status: completed', 'status: escalated'));
    expect(await main(['test', dir, '--flows', resolve('flows')], io)).toBe(1);
  });
});
