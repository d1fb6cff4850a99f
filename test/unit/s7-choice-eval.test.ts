import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { loadEvalFile } from '../../server/golden/eval-cases.ts';
import { runCases } from '../../server/golden/eval-run.ts';

// Session 7's choices and yes/no cases (test/eval/s7-choice-*.yaml, de-s7-choice.yaml), through the shipped flows with the
// offline rules: each is read as a careful person would record it. The eval gate only fails on a silently wrong case;
// this one also fails when one of these is merely asked again (a yes/no by content, a dialect word, "mainly the refill",
// a light to buy, a time hanging on a decision). The few listed are asked again by design: they stay so.

const EVAL_DIR = fileURLToPath(new URL('../eval/', import.meta.url));
const FILES = ['s7-choice-sales.yaml', 's7-choice-patient.yaml', 'de-s7-choice.yaml'];
/** Asked again (a check) although a careful person would record a value: a neutral clause naming an item, an item beside a denial. */
const ASKED_BY_DESIGN = ['s7c-safe-no-wont-turn-on', 's7c-safe-none-fixture-out', 's7c-safe-none-then-sparks', 's7c-int-dark-out'];

describe("session 7's choices and yes/no cases", () => {
  it('reads every case right, but the few asked again by design', async () => {
    const cases = FILES.flatMap((f) => loadEvalFile(join(EVAL_DIR, f)));
    expect(cases.length).toBeGreaterThanOrEqual(45);
    const results = await runCases(cases, () => new OfflineExtractor());
    expect(results.filter((r) => r.verdict !== 'correct' && !ASKED_BY_DESIGN.includes(r.id)).map((r) => `${r.id}: ${r.verdict}`)).toEqual([]);
    expect(results.filter((r) => ASKED_BY_DESIGN.includes(r.id)).map((r) => r.verdict)).toEqual(ASKED_BY_DESIGN.map(() => 'clarified'));
  });
});
