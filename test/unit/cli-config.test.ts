import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';

// The CLI runs a project's own code: questline.config.{ts,mjs,js} in the
// working directory, or --config FILE, gives `run`, `chat` and `test` their
// validators and actions, and a flow naming one it lacks does not start.

const FLOW = JSON.stringify({
  version: 'v1', id: 'flow.seats',
  nodes: [
    { id: 'q.seats', type: 'question', key: 'seats', prompt: 'Seats?', answer: { type: 'integer' }, validate: [{ name: 'even', message: 'An even number, please.' }] },
    { id: 'a.quote', type: 'action', call: 'quote', input_map: { seats: 'answers.seats' }, output_map: { total: 'total' }, provides: ['total'] },
    { id: 'n.done', type: 'terminal', say: 'Total {{answers.total}}.' },
  ],
}, null, 2);
const CONFIG = [
  'export default {',
  "  validators: { even: (v) => (Number(v) % 2 === 0 ? null : 'odd') },",
  "  actions: { quote: async ({ seats }) => ({ total: seats * 3 }) },",
  '};',
].join('\n');
const SCRIPT = 'flow: seats.flow.json\nturns:\n  - user: "3"\n  - user: "4"\n';

/** A project folder: the flow, a script, and the config under `configName` (none when undefined). */
function project(configName?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'questline-config-'));
  writeFileSync(join(dir, 'seats.flow.json'), FLOW);
  writeFileSync(join(dir, 'seats.golden.yaml'), SCRIPT);
  if (configName) writeFileSync(join(dir, configName), CONFIG);
  return dir;
}

async function runIn(dir: string, ...argv: string[]) {
  let out = '';
  let err = '';
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
    return { code, out, err };
  } finally {
    process.chdir(cwd);
  }
}

describe('questline.config in the CLI', () => {
  it('run finds questline.config.mjs in the working directory and uses its validator and action', async () => {
    const r = await runIn(project('questline.config.mjs'), 'run', 'seats.flow.json', '--script', 'seats.golden.yaml', '--json');
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toMatchObject({ status: 'completed', answers: { seats: 4, total: 12 } });
  });

  it('run takes --config FILE from anywhere', async () => {
    const dir = project('my-implementations.mjs');
    const r = await runIn(dir, 'run', 'seats.flow.json', '--script', 'seats.golden.yaml', '--json', '--config', 'my-implementations.mjs');
    expect(JSON.parse(r.out)).toMatchObject({ status: 'completed', answers: { total: 12 } });
  });

  it('run refuses a flow whose validator the config does not register, before the conversation starts', async () => {
    const dir = project();
    writeFileSync(join(dir, 'questline.config.mjs'), "export default { actions: { quote: async () => ({ total: 0 }) } };\n");
    const r = await runIn(dir, 'run', 'seats.flow.json', '--script', 'seats.golden.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^seats\.flow\.json:\d+:\d+: error \[unregistered_validator\] validator 'even' is not registered/m);
    expect(r.out).toBe('');
  });

  it('test runs goldens with the config\'s implementations', async () => {
    const dir = project('questline.config.mjs');
    writeFileSync(join(dir, 'seats.golden.yaml'), `${SCRIPT}end:\n  status: completed\n  answers: { seats: 4, total: 12 }\n`);
    // a fresh golden has no trace snapshot yet: write it first (under CI a missing snapshot fails)
    expect((await runIn(dir, 'test', '--update', 'seats.golden.yaml')).code).toBe(0);
    const r = await runIn(dir, 'test', 'seats.golden.yaml');
    expect(r.out).toContain('1 passed, 0 failed');
    expect(r.code).toBe(0);
  });
});
