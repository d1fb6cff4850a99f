import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runGolden } from '../../server/golden/run-golden.ts';

// `questline test`: a golden whose flow names a validator or action the
// project does not register fails when it loads, at the line that names it —
// not at the turn that first needs it.

const dir = mkdtempSync(join(tmpdir(), 'questline-golden-reg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FLOW = fileURLToPath(new URL('../../examples/signup.flow.json', import.meta.url));

describe('goldens check the registrations', () => {
  const golden = join(dir, 'signup.golden.yaml');
  writeFileSync(golden, `name: signup\nflow: ${FLOW}\nextractor: rules\nturns:\n  - user: "hello"\n    expect: { node: q.email }\n`);

  it('fail at load naming the unregistered validator with file:line:col', async () => {
    const r = await runGolden(golden, { implementations: { actions: { 'pricing.quote': async () => ({ total: 1 }) } } });
    expect(r.passed).toBe(false);
    expect(r.failures[0]!.turn).toBe('load');
    expect(r.failures[0]!.message).toMatch(/signup\.flow\.json:11:30: error \[unregistered_validator\] validator 'work_email' is not registered/);
  });

  it('run with them registered', async () => {
    const r = await runGolden(golden, { implementations: { validators: { work_email: () => null }, actions: { 'pricing.quote': async () => ({ total: 1 }) } } });
    expect(r.failures).toEqual([]);
    expect(r.passed).toBe(true);
  });
});
