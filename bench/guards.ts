/**
 * Guard evaluation throughput: Questline's compiled guards against json-logic-js,
 * jexl, filtrex, @marcbachmann/cel-js and a hand-written JS closure, on the same
 * inputs in one process. `npx tsx bench/guards.ts [--json]`.
 *
 * Every engine gets its own loop function (a separate function literal), so the
 * call site that invokes the engine only ever sees that engine's three guards;
 * a shared loop would turn that call site megamorphic and blur the fast engines.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parse as celParse } from '@marcbachmann/cel-js';
import { compileExpression, useDotAccessOperatorAndOptionalChaining } from 'filtrex';
import { compileGuard, type AnswerKeyInfo, type EvalScope } from '../server/flow/guard/index.ts';

type Scope = { answers: Record<string, any> };
type Run = (scope: Scope) => unknown;

// jexl and json-logic-js ship no type declarations; describe the parts used here.
interface JexlExpression { evalSync(context: object): unknown }
interface JexlInstance {
  compile(expr: string): JexlExpression;
  addTransform(name: string, fn: (v: unknown) => unknown): void;
}
interface JsonLogic {
  apply(logic: unknown, data: unknown): unknown;
  add_operation(name: string, fn: (...args: unknown[]) => unknown): void;
}
const require = createRequire(import.meta.url);
const { Jexl } = require('jexl') as { Jexl: new () => JexlInstance };
const jsonLogic = require('json-logic-js') as JsonLogic;

const jsonMode = process.argv.includes('--json');

/** has(x): the flow-IR truth table (false for missing, null, '' and []). */
function hasJs(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
}

// Varied inputs so every branch is taken; cycled with `i & 7`.
const INPUTS: Scope[] = [
  { answers: { product: 'led', venue: 'court', age: 34, email: 'a@b.co', phone: '+14155550123' } },
  { answers: { product: 'led', venue: 'field', age: 17, email: '', phone: '+14155550124' } },
  { answers: { product: 'halogen', venue: 'arena', age: 18, email: null, phone: '' } },
  { answers: { product: 'led', venue: 'arena', age: 65.5, phone: '+442071838750' } },
  { answers: { product: 'led', venue: 'gym', age: 12, email: 'x@y.z' } },
  { answers: { product: 'none', venue: 'court', age: 40 } },
  { answers: { product: 'led', venue: 'court', age: 18, email: '', phone: null } },
  { answers: { product: 'halogen', venue: 'court', age: 0, email: 'q@r.s', phone: '' } },
];

const KEYS = new Map<string, AnswerKeyInfo>([
  ['product', { type: 'enum', options: ['led', 'halogen', 'none'] }],
  ['venue', { type: 'text' }],
  ['age', { type: 'number' }],
  ['email', { type: 'email' }],
  ['phone', { type: 'phone' }],
]);

interface GuardCase {
  name: string;
  questline: string;
  closure: Run;
  cel: string;
  jexl: string;
  filtrex: string;
  jsonlogic: unknown;
}

const CASES: GuardCase[] = [
  {
    name: 'enum && in-list',
    questline: "answers.product == 'led' && answers.venue in ['court','arena']",
    closure: (s) => s.answers.product === 'led' && (s.answers.venue === 'court' || s.answers.venue === 'arena'),
    cel: "answers.product == 'led' && answers.venue in ['court','arena']",
    jexl: "answers.product == 'led' && answers.venue in ['court','arena']",
    filtrex: 'answers.product == "led" and answers.venue in ("court", "arena")',
    jsonlogic: { and: [{ '===': [{ var: 'answers.product' }, 'led'] }, { in: [{ var: 'answers.venue' }, ['court', 'arena']] }] },
  },
  {
    name: 'number >=',
    questline: 'answers.age >= 18',
    closure: (s) => s.answers.age >= 18,
    cel: 'answers.age >= 18',
    jexl: 'answers.age >= 18',
    filtrex: 'answers.age >= 18',
    jsonlogic: { '>=': [{ var: 'answers.age' }, 18] },
  },
  {
    name: 'has || has',
    questline: 'has(answers.email) || has(answers.phone)',
    closure: (s) => hasJs(s.answers.email) || hasJs(s.answers.phone),
    // CEL's has() only tests presence; the null and '' checks give the same truth table.
    cel: "(has(answers.email) && answers.email != null && answers.email != '') || " +
      "(has(answers.phone) && answers.phone != null && answers.phone != '')",
    jexl: 'answers.email|has || answers.phone|has',
    filtrex: 'has(answers.email) or has(answers.phone)',
    jsonlogic: { or: [{ has: [{ var: 'answers.email' }] }, { has: [{ var: 'answers.phone' }] }] },
  },
];

const ENGINES = ['questline', 'celjs', 'jexl', 'jsonlogic', 'filtrex', 'closure'] as const;
type Engine = (typeof ENGINES)[number];

function buildRuns(c: GuardCase, jexl: JexlInstance): Record<Engine, Run> {
  const compiled = compileGuard(c.questline, { answers: KEYS });
  if (!compiled.ok) throw new Error(`questline rejected ${c.questline}: ${JSON.stringify(compiled.issues)}`);
  const test = compiled.guard.test as (s: EvalScope) => boolean;
  const cel = celParse(c.cel);
  const jx = jexl.compile(c.jexl);
  const fx = compileExpression(c.filtrex, {
    extraFunctions: { has: hasJs },
    customProp: useDotAccessOperatorAndOptionalChaining,
  });
  const logic = c.jsonlogic;
  return {
    questline: test,
    celjs: (s) => cel(s),
    jexl: (s) => jx.evalSync(s),
    jsonlogic: (s) => jsonLogic.apply(logic, s),
    filtrex: (s) => fx(s),
    closure: c.closure,
  };
}

// One loop literal per engine (see the header comment). Each returns the hit
// count so the results are consumed.
const LOOPS: Record<Engine, (run: Run, n: number) => number> = {
  questline: (run, n) => { let h = 0; for (let i = 0; i < n; i++) if (run(INPUTS[i & 7]!)) h++; return h; },
  celjs: (run, n) => { let h = 0; for (let i = 0; i < n; i++) if (run(INPUTS[i & 7]!)) h++; return h; },
  jexl: (run, n) => { let h = 0; for (let i = 0; i < n; i++) if (run(INPUTS[i & 7]!)) h++; return h; },
  jsonlogic: (run, n) => { let h = 0; for (let i = 0; i < n; i++) if (run(INPUTS[i & 7]!)) h++; return h; },
  filtrex: (run, n) => { let h = 0; for (let i = 0; i < n; i++) if (run(INPUTS[i & 7]!)) h++; return h; },
  closure: (run, n) => { let h = 0; for (let i = 0; i < n; i++) if (run(INPUTS[i & 7]!)) h++; return h; },
};

const WARMUP_MS = 150;
const ROUND_MS = 60;
const ROUNDS = 7;
let sink = 0;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function geomean(xs: number[]): number {
  return Math.exp(xs.reduce((acc, x) => acc + Math.log(x), 0) / xs.length);
}

/** Runs `loop` until `ms` have passed, doubling the batch; returns evaluations per ms. */
function calibrate(loop: (run: Run, n: number) => number, run: Run, ms: number): number {
  let n = 1024;
  for (;;) {
    const t0 = performance.now();
    sink += loop(run, n);
    const dt = performance.now() - t0;
    if (dt >= ms) return n / dt;
    n *= dt < ms / 8 ? 8 : 2;
  }
}

function main(): void {
  const jexl = new Jexl();
  jexl.addTransform('has', hasJs);
  jsonLogic.add_operation('has', (v: unknown) => hasJs(v));

  const runs = CASES.map((c) => buildRuns(c, jexl));

  // Correctness first: every engine must agree with the closure on every input.
  const mismatches: string[] = [];
  CASES.forEach((c, gi) => {
    for (const [ii, input] of INPUTS.entries()) {
      const expected = Boolean(c.closure(input));
      for (const e of ENGINES) {
        const got = Boolean(runs[gi]![e](input));
        if (got !== expected) mismatches.push(`${c.name}: ${e} gave ${got} on input #${ii}, closure ${expected}`);
      }
    }
  });
  if (mismatches.length > 0) {
    process.stderr.write(`engines disagree:\n  ${mismatches.join('\n  ')}\n`);
    process.exit(1);
  }

  // Warm up every engine/guard pair, then size each round to about ROUND_MS.
  const perMs: number[][] = CASES.map((_, gi) => ENGINES.map((e) => calibrate(LOOPS[e], runs[gi]![e], WARMUP_MS)));
  const samples: number[][][] = CASES.map(() => ENGINES.map(() => []));
  // Rounds are interleaved across engines so drift (GC, turbo) hits all of them alike.
  for (let r = 0; r < ROUNDS; r++) {
    CASES.forEach((_, gi) => {
      ENGINES.forEach((e, ei) => {
        const n = Math.max(1024, Math.round(perMs[gi]![ei]! * ROUND_MS));
        const t0 = performance.now();
        sink += LOOPS[e](runs[gi]![e], n);
        const dt = performance.now() - t0;
        samples[gi]![ei]!.push(n / dt / 1000); // evaluations per ms / 1000 = Mops
      });
    });
  }

  const perGuard = CASES.map((c, gi) => {
    const mops = Object.fromEntries(ENGINES.map((e, ei) => [e, round(median(samples[gi]![ei]!))])) as Record<Engine, number>;
    return {
      guard: c.questline,
      mops,
      speedup_vs_celjs: round(mops.questline / mops.celjs),
      closure_ratio: round(mops.closure / mops.questline),
    };
  });
  const geo = Object.fromEntries(ENGINES.map((e) => [e, round(geomean(perGuard.map((g) => g.mops[e])))])) as Record<Engine, number>;
  const result = {
    questline_mops: geo.questline,
    celjs_mops: geo.celjs,
    closure_mops: geo.closure,
    jexl_mops: geo.jexl,
    jsonlogic_mops: geo.jsonlogic,
    filtrex_mops: geo.filtrex,
    speedup_vs_celjs: round(geo.questline / geo.celjs),
    closure_ratio: round(geo.closure / geo.questline),
    per_guard: perGuard,
    node: process.version,
    rounds: ROUNDS,
  };

  if (jsonMode) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    printTable(perGuard, geo, result.speedup_vs_celjs, result.closure_ratio);
  }
  if (sink < 0) process.stdout.write(''); // keeps `sink` observable
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function printTable(
  perGuard: { guard: string; mops: Record<Engine, number>; speedup_vs_celjs: number; closure_ratio: number }[],
  geo: Record<Engine, number>, speedup: number, closureRatio: number,
): void {
  const cols = ['guard', ...ENGINES, 'ql/cel', 'closure/ql'];
  const rows = perGuard.map((g, i) => [
    `${i + 1}. ${CASES[i]!.name}`,
    ...ENGINES.map((e) => g.mops[e].toFixed(2)),
    `${g.speedup_vs_celjs.toFixed(1)}x`,
    `${g.closure_ratio.toFixed(2)}x`,
  ]);
  rows.push(['geometric mean', ...ENGINES.map((e) => geo[e].toFixed(2)), `${speedup.toFixed(1)}x`, `${closureRatio.toFixed(2)}x`]);
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  const out = [
    `Guard evaluation throughput, median of ${ROUNDS} rounds, Mops (million evaluations/s), node ${process.version}`,
    '',
    line(cols),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    ...CASES.map((c, i) => `${i + 1}. ${c.questline}`),
    '',
    `questline vs cel-js: ${speedup.toFixed(1)}x faster (target >= 5x); closure / questline: ${closureRatio.toFixed(2)}x (target <= 3x)`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

main();
