import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sampleActions } from '../../examples/sample-actions.ts';
import { chatCommand } from '../../server/cli/chat.ts';
import type { CliIo } from '../../server/cli/io.ts';
import { main } from '../../server/cli/main.ts';
import { ScriptedClock } from '../../server/conversation/scripted-clock.ts';

/** An io that captures what a command prints. */
function capture() {
  const buf = { out: '', err: '' };
  const io: CliIo = { out: (t) => (buf.out += t.endsWith('\n') ? t : `${t}\n`), err: (t) => (buf.err += t.endsWith('\n') ? t : `${t}\n`) };
  return { io, buf };
}

/** Runs the CLI in-process and captures what it prints. */
async function cli(...argv: string[]) {
  const { io, buf } = capture();
  const code = await main(argv, io);
  return { code, ...buf };
}

const dir = mkdtempSync(join(tmpdir(), 'questline-run-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

const SALES = 'flows/global/sales.flow.json';
const golden = write('led.golden.yaml', `name: LED buyer, happy path
flow: ../flows/global/sales.flow.json
turns:
  - user: "Hi, I want LED lights for a basketball court"
    expect: { node: q.court_size, answers: { intention: buy_led } }
  - user: "420"
  - user: "8"
  - user: "10"
  - user: skip
  - user: 25k
  - user: asap
  - user: "I'm Ann Lee"
  - user: Lincoln High
  - user: ann@example.com
  - user: "yes"
end:
  status: completed
`);

describe('questline run', () => {
  it('prints the conversation and a compact trace of every turn, ending with status and answers', async () => {
    const r = await cli('run', SALES, '--script', golden);
    expect(r.code).toBe(0);
    expect(r.out).toContain('you: 420');
    expect(r.out).toContain('bot: Hi there! Welcome to Brightfield Sports Lighting.');
    expect(r.out).toContain('  1) Buy new LED lighting');
    expect(r.out).toContain('  [t1] guard e.intent.buy → true @q.intent');
    expect(r.out).toContain('  [t1] subgraph_enter subgraph.led_path from sg.led');
    expect(r.out).toContain('  [t2] answer_set court_size=420 @q.court_size');
    expect(r.out).toContain('  [t2] node_exit q.sport skipped (answered)');
    expect(r.out).toContain('  [t5] node_exit q.wattage → __exit__ via e.wattage.exit');
    expect(r.out).toContain('  [t10] answer_set email=[pii] @q.email');
    expect(r.out).toContain('  [t11] completed outcome=completed @n.done');
    expect(r.out).toMatch(/status: completed \(outcome: completed\)\nanswers:\n {2}account_owner: "Sales team"\n {2}budget: 25000\n/);
  });

  it('--json prints one object with status, answers, every turn and the trace', async () => {
    const r = await cli('run', SALES, '--script', golden, '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out).toMatchObject({ flow: 'flow.sales', status: 'completed', outcome: 'completed' });
    expect(out.revision).toMatch(/^[0-9a-f]{16}$/);
    expect(out.answers).toMatchObject({
      intention: 'buy_led', court_size: 420, pole_count: 8, mounting_height: 10, wattage: null, budget: 25000,
      timeline: 'asap', name: 'Ann Lee', company: 'Lincoln High', email: 'ann@example.com',
    });
    expect(out.turns).toHaveLength(12);
    expect(out.turns[0]).toMatchObject({ user: null, node: 'q.intent' });
    expect(out.turns[1]).toMatchObject({ user: 'Hi, I want LED lights for a basketball court', node: 'q.court_size' });
    expect(out.turns[2].events).toContainEqual({ type: 'answer_set', turn: 2, node: 'q.court_size', key: 'court_size', value: 420, source: 'user', extractor: 'rules', confidence: 1 });
    expect(out.trace).toEqual(out.turns.flatMap((t: { events: unknown[] }) => t.events));
  });

  it('gives byte-identical JSON on two runs', async () => {
    const a = await cli('run', SALES, '--script', golden, '--json');
    const b = await cli('run', SALES, '--script', golden, '--json');
    expect(a.out.length).toBeGreaterThan(1000);
    expect(a.out).toBe(b.out);
  });

  it('--audit reports a clean trace and exits 0', async () => {
    const r = await cli('run', SALES, '--script', golden, '--audit');
    expect(r.code).toBe(0);
    expect(r.err).toContain('audit: no issues');
  });

  it('refuses given answers for a key the flow does not define, with a validation event', async () => {
    const file = write('given-bad.golden.yaml', 'given: { answers: { favourite_colour: blue } }\nturns: []\n');
    const r = await cli('run', SALES, '--script', file, '--audit', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.answers).not.toHaveProperty('favourite_colour');
    expect(out.trace).toContainEqual(expect.objectContaining({ type: 'validation_failed', key: 'favourite_colour', source: 'given' }));
  });

  it('starts mid-flow from given answers', async () => {
    const file = write('given.golden.yaml', 'given:\n  answers: { intention: buy_led, court_size: 420 }\nturns:\n  - user: basketball\n');
    const r = await cli('run', SALES, '--script', file);
    expect(r.code).toBe(0);
    expect(r.out).toContain('[t0] answer_set court_size=420 (given)');
    expect(r.out).toContain('[t0] node_exit q.intent skipped (answered)');
    expect(r.out).toContain('[t1] answer_set sport="basketball" @q.sport');
  });

  it('exits 1 with file:line:col when a user turn is not text', async () => {
    const file = write('number.golden.yaml', 'turns:\n  - user: hello\n  - user: 420\n');
    const r = await cli('run', SALES, '--script', file);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${file}:3:11: error [script] turns[1].user: expected text`);
    expect(r.out).toBe('');
  });

  it('exits 1 on a misspelt field, a YAML syntax error and a missing script', async () => {
    const typo = await cli('run', SALES, '--script', write('typo.golden.yaml', 'turns:\n  - user: hi\n    expext: { node: q.a }\n'));
    expect(typo.code).toBe(1);
    expect(typo.err).toMatch(/typo\.golden\.yaml:3:5: error \[unknown_field\] turns\[0\]: unknown field 'expext' \(did you mean 'expect'\?\)/);
    const syntax = await cli('run', SALES, '--script', write('syntax.golden.yaml', 'turns:\n  - user: "open\n'));
    expect(syntax.code).toBe(1);
    expect(syntax.err).toMatch(/syntax\.golden\.yaml:\d+:\d+: error \[parse_error\]/);
    const missing = await cli('run', SALES, '--script', join(dir, 'nope.golden.yaml'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('nope.golden.yaml: error [read_error] no such file');
  });

  it('exits 1 with the compiler\'s diagnostics when the flow does not compile', async () => {
    const flow = write('bad.flow.json', '{\n  "version": "v1",\n  "id": "flow.bad",\n  "nodes": [ { "id": "q.a", "type": "question", "key": "a" } ],\n  "edges": [ { "from": "q.a", "to": "q.zzz" } ]\n}\n');
    const r = await cli('run', flow, '--script', golden);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.flow\.json:5:\d+: error \[dangling_edge\]/);
  });

  it('exits 2 on bad usage: no flow, no --script, or a --now that is not a date-time', async () => {
    expect((await cli('run')).code).toBe(2);
    expect((await cli('run', SALES)).code).toBe(2);
    const now = await cli('run', SALES, '--script', golden, '--now', 'tomorrow');
    expect(now.code).toBe(2);
    expect(now.err).toContain('--now "tomorrow" is not an ISO 8601 date-time');
  });

  it('speaks the golden\'s locale: (German questions, German replies read) and reaches its end; --locale overrides it', async () => {
    const de = await cli('run', SALES, '--script', 'flows/global/sales-de-happy.golden.yaml', '--json');
    expect(de.code).toBe(0);
    const out = JSON.parse(de.out) as { status: string; answers: Record<string, unknown>; turns: Array<{ messages: Array<{ text: string }> }> };
    expect(out.turns[0]!.messages.map((m) => m.text)).toContain('Hallo! Willkommen bei Brightfield Sports Lighting.');
    expect(out.answers).toMatchObject({ intention: 'buy_led', sport: 'soccer', timeline: 'within_3_months' });
    expect(out.status).toBe('completed');
    const en = await cli('run', SALES, '--script', 'flows/global/sales-de-happy.golden.yaml', '--locale', 'en');
    expect(en.out).toContain('bot: Hi there! Welcome to Brightfield Sports Lighting.');
    expect(en.out).not.toContain('Hallo!');
    expect(en.out.split('\n')[0]).toContain('locale en');
    const fr = await cli('run', SALES, '--script', 'flows/global/sales-de-happy.golden.yaml', '--locale', 'fr');
    expect(fr.err).toContain('questline run: flow.sales has no fr translation (its locales: en, de); speaking en');
  });

  it('replays a recorded-LLM golden\'s llm: calls (extractor: replay) and reaches the ending questline test expects', async () => {
    const r = await cli('run', 'flows/global/patient-intake.flow.yaml', '--script', 'flows/global/patient-replay-other-unwell.golden.yaml', '--json');
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('rules extractor');
    const out = JSON.parse(r.out) as { status: string; answers: Record<string, unknown> };
    expect(out.status).toBe('escalated');
    expect(out.answers).toMatchObject({ insurance_provider: 'Aetna', insurance_id: 'AET-5512-X', visit_reason: 'other', symptoms: ['fever', 'pain_or_injury'], symptom_days: 4 });
  });

  it('exits 1 naming the golden when a recorded llm: call is not a tool call', async () => {
    const bad = write('bad-replay.golden.yaml', `flow: ../flows/global/sales.flow.json
extractor: replay
turns:
  - user: "hi"
    llm:
      - { tool: no_such_tool, input: {} }
`);
    const r = await cli('run', SALES, '--script', bad);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}: a recorded llm call must be one of`);
  });

  it('--now overrides the script\'s clock', async () => {
    const file = write('clock.golden.yaml', 'now: 2026-03-01T09:00:00Z\nturns: []\n');
    expect((await cli('run', SALES, '--script', file)).out).toContain('clock 2026-03-01T09:00:00Z');
    expect((await cli('run', SALES, '--script', file, '--now', '2027-05-05T12:00:00+02:00')).out).toContain('clock 2027-05-05T12:00:00+02:00');
  });
});

describe('the scripted clock', () => {
  it('advances one minute per turn and keeps the start\'s offset across midnight', () => {
    const c = new ScriptedClock('2026-01-15T23:59:30+02:00');
    c.tick();
    expect(c.now()).toBe('2026-01-16T00:00:30+02:00');
    const utc = new ScriptedClock('2026-01-15');
    utc.tick();
    expect(utc.now()).toBe('2026-01-15T00:01:00Z');
  });
});

describe('questline chat', () => {
  it('chats over piped stdin: numbers pick quick replies, and it ends with the completed status and answers', () => {
    const r = spawnSync(process.execPath, ['bin/questline.js', 'chat', 'flows/global/newsletter.flow.json', '--now', '2026-01-15T10:00:00Z'], {
      input: 'Ann\nann@example.com\n1\n', encoding: 'utf8', timeout: 20_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("bot: Great! What's your first name?\n> Ann\n");
    expect(r.stdout).toContain('bot: Thanks, Ann. Which email address should we send the newsletter to?');
    expect(r.stdout).toContain('  1) New products\n');
    expect(r.stdout).toContain('[2/3]\n');
    expect(r.stdout).toContain('> 1\n  → New products\n');
    expect(r.stdout).toContain("bot: You're on the list, Ann!");
    expect(r.stdout).toMatch(/status: completed \(outcome: completed\)\nanswers:\n {2}email: "ann@example.com"\n {2}name: "Ann"\n {2}topics: \["product_news"\]\n$/);
  });

  it('answers /trace and /answers, re-asks a wrong email, and stops at end of input with the session still active', async () => {
    const { io, buf } = capture();
    const code = await chatCommand('flows/global/newsletter.flow.json', { now: '2026-01-15T10:00:00Z' }, io,
      Readable.from(['Ann\nann@\n/trace\n/answers\n/nonsense\n']));
    expect(code).toBe(0);
    expect(buf.out).toContain('bot: That doesn\'t look like an email address — could you check it?');
    expect(buf.out).toContain('> /trace\n[t2] validation_failed email: That doesn\'t look like an email address. (attempt 1) @q.email\n');
    expect(buf.out).toContain('> /answers\nname: "Ann"\n');
    expect(buf.out).toContain('unknown command /nonsense; type /help');
    expect(buf.out).toMatch(/status: active\nanswers:\n {2}name: "Ann"\n$/);
  });

  it('--locale de speaks the flow\'s German translation and reads German replies (the locale reaches the extractor)', async () => {
    const { io, buf } = capture();
    const code = await chatCommand('flows/global/sales.flow.json', { now: '2026-01-15T10:00:00Z', locale: 'de', implementations: { actions: sampleActions } }, io,
      Readable.from(['Wir brauchen ein Angebot\nzweitausend Quadratfuß\n/answers\n']));
    expect(code).toBe(0);
    expect(buf.err).toBe('');
    expect(buf.out).toContain('bot: Wobei können wir Ihnen heute helfen');
    expect(buf.out).toContain('  1) Neue LED-Beleuchtung kaufen\n');
    // "zweitausend" is a German number word and "Quadratfuß" a German unit: read only in German
    expect(buf.out).toContain("bot: zweitausend Quadratfuß — etwa 186 m², notiert.");
    expect(buf.out).toContain('> /answers\ncourt_size: 186\nintention: "buy_led"\n');
  });

  it('--locale tells the author when the flow cannot speak it, and runs as written', async () => {
    const none = capture();
    expect(await chatCommand('flows/global/newsletter.flow.json', { now: '2026-01-15T10:00:00Z', locale: 'de' }, none.io, Readable.from(['/quit\n']))).toBe(0);
    expect(none.buf.err).toContain('declares no locales; --locale de is ignored');
    expect(none.buf.out).toContain("bot: Great! What's your first name?");
    const other = capture();
    expect(await chatCommand('flows/global/sales.flow.json', { now: '2026-01-15T10:00:00Z', locale: 'fr', implementations: { actions: sampleActions } }, other.io, Readable.from(['/quit\n']))).toBe(0);
    expect(other.buf.err).toContain('has no fr translation (its locales: en, de); speaking en');
  });

  it('refuses, before reading input, a flow naming a validator no config registers (no questline.config)', async () => {
    const { io, buf } = capture();
    expect(await chatCommand('examples/signup.flow.json', {}, io, Readable.from(['bob@acme.io\n']))).toBe(1);
    expect(buf.err).toMatch(/^examples\/signup\.flow\.json:11:30: error \[unregistered_validator\] validator 'work_email' is not registered/m);
    expect(buf.out).toBe('');
  });

  it('exits 1 without reading input when the flow does not compile', async () => {
    const { io, buf } = capture();
    const flow = write('broken.flow.json', '{ "version": "v1", "id": "x", "nodes": [] }');
    expect(await chatCommand(flow, {}, io, Readable.from([]))).toBe(1);
    expect(buf.err).toContain('error [no_nodes]');
  });
});
