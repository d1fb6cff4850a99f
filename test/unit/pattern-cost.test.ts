import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';
import { MAX_PATTERN_COST, patternCost } from '../../server/flow/pattern-cost.ts';

// Patterns are capped by what they cost to run (program size × the longest
// input they can see), not by their length: a short pattern with nested
// counted repeats is refused, with its place in the file.

/** A 33-character answer pattern whose program is over a thousand instructions. */
const COSTLY = '^(?:[a-z0-9]{1,20}[ ._-]?){1,30}$';

async function validate(file: string) {
  let err = '';
  const code = await main(['validate', file], { out: () => {}, err: (t) => (err += `${t}\n`) });
  return { code, err };
}

const flowWith = (answer: Record<string, unknown>, guard?: string) => `{
  "version": "v1",
  "id": "flow.costly",
  "nodes": [
    { "id": "q.code", "type": "question", "key": "code", "prompt": "Your code?",
      "answer": ${JSON.stringify(answer)} },
    { "id": "n.end", "type": "terminal" }
  ]${guard ? `,
  "edges": [
    { "from": "q.code", "to": "n.end", "guard": ${JSON.stringify(guard)} },
    { "from": "q.code", "to": "n.end", "guard": "else" }
  ]` : ''}
}
`;

describe('pattern cost', () => {
  const dir = mkdtempSync(join(tmpdir(), 'questline-pattern-cost-'));

  it('is program size × input length, and the costly pattern is over the cap on a message', () => {
    const re = RE2JS.compile(COSTLY);
    expect(patternCost(re, 2000)).toBe(re.programSize() * 2000);
    expect(patternCost(re, 2000)).toBeGreaterThan(MAX_PATTERN_COST);
    expect(patternCost(RE2JS.compile('^[A-Za-z]{2}-?[0-9]{6}$'), 2000)).toBeLessThan(MAX_PATTERN_COST);
  });

  it('questline validate refuses an answer pattern over the cost cap at file:line:col', async () => {
    const file = join(dir, 'answer.flow.json');
    writeFileSync(file, flowWith({ type: 'text', pattern: COSTLY }));
    const r = await validate(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6:\\d+: error \\[pattern_too_costly\\] question 'q.code': pattern costs too much`));
    // the same pattern on a short answer costs less, and fits
    writeFileSync(file, flowWith({ type: 'text', pattern: COSTLY, max: 40 }));
    expect((await validate(file)).code).toBe(0);
  });

  it('questline validate refuses a guard whose matches() pattern is over the cap, at the pattern', async () => {
    const file = join(dir, 'guard.flow.json');
    const guard = `matches(answers.code, '${COSTLY}')`;
    writeFileSync(file, flowWith({ type: 'text' }, guard));
    const r = await validate(file);
    expect(r.code).toBe(1);
    // the column points inside the guard string, at the pattern literal
    const line = r.err.split('\n').find((l) => l.includes('[guard_regex_too_costly]'))!;
    expect(line).toMatch(/:10:\d+: error \[guard_regex_too_costly\] edge q.code->n.end: matches\(\) pattern costs too much/);
    const col = Number(/:10:(\d+):/.exec(line)![1]);
    const text = flowWith({ type: 'text' }, guard).split('\n')[9]!;
    expect(text.slice(col - 1)).toMatch(/^'\^\(\?:/);
  });
});
