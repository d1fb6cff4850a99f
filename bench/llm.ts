/**
 * LLM calls of the hybrid AnthropicExtractor on the shipped goldens, against
 * a naive one-call-per-message baseline (issue 6, item 9).
 * `npm run bench:llm [-- --json] [-- --include-replay] [-- --include-fixtures]`.
 *
 * Each `extractor: rules` golden under flows/ and test/golden/ whose flow is
 * shipped (in flows/) has its user turns played through LocalConversation
 * with an AnthropicExtractor (the real @anthropic-ai/sdk client) pointed at a
 * local "mirror" model on 127.0.0.1 (bench/llm/mirror.ts). The mirror answers
 * every request with the OFFLINE rules' proposal for that same message as
 * tool_use blocks, so conversations progress as they do offline (checked: the
 * final status, node, path and answer values are compared with a plain offline
 * run). The figures therefore measure how often the hybrid rule calls the
 * model — not what a real model would understand, and not extraction quality.
 * A real model understanding more free text could finish conversations in
 * fewer turns; one understanding less could need more.
 *
 * `extractor: replay` goldens are skipped by default (their model calls are
 * recorded in the golden; their free text is written for a model and the
 * mirror cannot follow it); `--include-replay` plays them the same way.
 *
 * Counted per flow: user turns (every scripted message), command turns (a
 * flow command such as back/restart/human: the engine handles them, no
 * extraction), naive calls = turns that are not commands, model calls
 * (`stats().calls` of the extractor, cross-checked with the mirror's request
 * count), turns settled without a call by the exact rule, and quick-reply
 * clicks (the message is one of the quick replies the bot had just offered).
 */
import { playTurn } from '../server/golden/play-turn.ts';
import { LocalConversation, type Reply } from '../server/conversation/local-conversation.ts';
import { sampleActions } from '../examples/sample-actions.ts';
import { ScriptedClock } from '../server/conversation/scripted-clock.ts';
import type { Session } from '../server/engine/session.ts';
import { matchCommand } from '../server/engine/extraction.ts';
import { AnthropicExtractor, type AnthropicEvent, type ExactRule } from '../server/extract/anthropic/index.ts';
import type { Extractor } from '../server/extract/extractor.ts';
import { OfflineExtractor } from '../server/extract/offline/index.ts';
import { GOLDEN_DEFAULT_NOW } from '../server/golden/run-golden.ts';
import { discoverBenchGoldens, type BenchGolden } from './llm/goldens.ts';
import { MirrorTap, startMirror, type MirrorServer } from './llm/mirror.ts';

const args = new Set(process.argv.slice(2));
const JSON_OUT = args.has('--json');
const INCLUDE_REPLAY = args.has('--include-replay');
const INCLUDE_FIXTURES = args.has('--include-fixtures');

/** Targets from issue 6, item 9. */
const TARGET_CALLS_PER_TURN = 1;
const TARGET_SAVING = 0.4;

interface GoldenRun {
  file: string;
  turns: number;
  commands: number;
  naive: number;
  calls: number;
  /** Non-command turns settled by the exact rule, by rule. */
  skippedBy: Partial<Record<ExactRule, number>>;
  skipped: number;
  quickReplyClicks: number;
  quickReplyCalls: number;
  /** Turns where the extractor fell back to offline (should be 0 against the mirror). */
  fallbacks: number;
  fallbackDetails: string[];
  status: Session['status'];
  /** The final state matches a plain offline run of the same golden. */
  sameAsOffline: boolean;
  difference?: string;
}

function endState(s: Session): Record<string, unknown> {
  return {
    status: s.status,
    outcome: s.outcome ?? null,
    node: s.node,
    path: s.path,
    answers: Object.fromEntries([...s.answers.entries()].map(([k, r]) => [k, r.value]).sort(([a], [b]) => String(a).localeCompare(String(b)))),
  };
}

function firstDiff(a: Record<string, unknown>, b: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(a)) {
    const x = JSON.stringify(a[k]);
    const y = JSON.stringify(b[k]);
    if (x !== y) return `${k}: offline ${x?.slice(0, 120)} vs hybrid ${y?.slice(0, 120)}`;
  }
  return undefined;
}

async function play(g: BenchGolden, extractor: Extractor, onTurn?: (i: number, text: string, before: Reply | undefined, isCommand: boolean) => Promise<void> | void, after?: (i: number) => void): Promise<Session> {
  const clock = new ScriptedClock(g.script.now ?? GOLDEN_DEFAULT_NOW);
  const conv = new LocalConversation(g.flow, { extractor, actions: sampleActions, env: clock });
  let last: Reply | undefined = await conv.start({ ...(g.script.given ? { given: g.script.given } : {}) });
  for (const [i, t] of g.script.turns.entries()) {
    clock.tick();
    if (t.user === undefined) { // an operator's move: no extraction to measure
      last = await playTurn(conv, t, clock.now());
      continue;
    }
    const isCommand = matchCommand(g.flow, t.user) !== null;
    await onTurn?.(i, t.user, last, isCommand);
    last = await conv.send(t.user, clock.now());
    after?.(i);
  }
  return conv.session;
}

function offeredQuickReplies(reply: Reply | undefined): string[] {
  if (!reply) return [];
  const q = [...reply.messages].reverse().find((m) => m.quickReplies && m.quickReplies.length > 0);
  return q?.quickReplies ?? [];
}

const fold = (s: string) => s.trim().toLowerCase().replace(/[.!]+$/, '');

async function runGolden(g: BenchGolden, mirror: MirrorServer): Promise<GoldenRun> {
  const offlineEnd = endState(await play(g, new OfflineExtractor()));

  const events: AnthropicEvent[] = [];
  const anthropic = new AnthropicExtractor({
    apiKey: 'sk-bench-mirror',
    baseURL: mirror.url,
    timeoutMs: 5_000,
    maxRetries: 0,
    onEvent: (e) => events.push(e),
  });
  const tap = new MirrorTap(anthropic);
  mirror.tap = tap;
  const run: GoldenRun = {
    file: g.file, turns: 0, commands: 0, naive: 0, calls: 0, skippedBy: {}, skipped: 0,
    quickReplyClicks: 0, quickReplyCalls: 0, fallbacks: 0, fallbackDetails: [], status: 'active', sameAsOffline: false,
  };
  let callsBefore = 0;
  let eventsBefore = 0;
  let click = false;
  const session = await play(g, tap, (_i, text, before, isCommand) => {
    run.turns += 1;
    if (isCommand) run.commands += 1;
    else run.naive += 1;
    click = !isCommand && offeredQuickReplies(before).some((q) => fold(q) === fold(text));
    if (click) run.quickReplyClicks += 1;
    callsBefore = anthropic.stats().calls;
    eventsBefore = events.length;
  }, () => {
    const made = anthropic.stats().calls - callsBefore;
    if (click && made > 0) run.quickReplyCalls += made;
    for (const e of events.slice(eventsBefore)) {
      if (e.type === 'llm_skipped') {
        run.skipped += 1;
        run.skippedBy[e.rule] = (run.skippedBy[e.rule] ?? 0) + 1;
      } else if (e.type === 'llm_fallback') {
        run.fallbacks += 1;
        run.fallbackDetails.push(`${e.reason}: ${e.detail}`);
      }
    }
  });
  mirror.tap = null;
  run.calls = anthropic.stats().calls;
  run.status = session.status;
  const hybridEnd = endState(session);
  const diff = firstDiff(offlineEnd, hybridEnd);
  run.sameAsOffline = diff === undefined;
  if (diff) run.difference = diff;
  return run;
}

interface FlowFigures {
  goldens: number;
  turns: number;
  command_turns: number;
  naive_calls: number;
  calls: number;
  calls_per_turn: number;
  calls_per_non_command_turn: number;
  completed: number;
  calls_in_completed: number;
  calls_per_completed_conversation: number | null;
  naive_per_completed_conversation: number | null;
  zero_call_exact_turns: number;
  zero_call_by_rule: Partial<Record<ExactRule, number>>;
  quick_reply_clicks: number;
  quick_reply_calls: number;
  saving_pct: number;
  fallbacks: number;
  same_as_offline: number;
  meets: { calls_per_turn_le_1: boolean; quick_replies_0: boolean; saving_ge_40pct: boolean };
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const r1 = (x: number) => Math.round(x * 10) / 10;

function figures(runs: GoldenRun[]): FlowFigures {
  const sum = (f: (r: GoldenRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  const turns = sum((r) => r.turns);
  const naive = sum((r) => r.naive);
  const calls = sum((r) => r.calls);
  const completed = runs.filter((r) => r.status === 'completed');
  const callsCompleted = completed.reduce((a, r) => a + r.calls, 0);
  const naiveCompleted = completed.reduce((a, r) => a + r.naive, 0);
  const byRule: Partial<Record<ExactRule, number>> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.skippedBy) as Array<[ExactRule, number]>) byRule[k] = (byRule[k] ?? 0) + v;
  const saving = naive === 0 ? 0 : 1 - calls / naive;
  const quickCalls = sum((r) => r.quickReplyCalls);
  return {
    goldens: runs.length,
    turns,
    command_turns: sum((r) => r.commands),
    naive_calls: naive,
    calls,
    calls_per_turn: turns === 0 ? 0 : r2(calls / turns),
    calls_per_non_command_turn: naive === 0 ? 0 : r2(calls / naive),
    completed: completed.length,
    calls_in_completed: callsCompleted,
    calls_per_completed_conversation: completed.length === 0 ? null : r2(callsCompleted / completed.length),
    naive_per_completed_conversation: completed.length === 0 ? null : r2(naiveCompleted / completed.length),
    zero_call_exact_turns: sum((r) => r.skipped),
    zero_call_by_rule: byRule,
    quick_reply_clicks: sum((r) => r.quickReplyClicks),
    quick_reply_calls: quickCalls,
    saving_pct: r1(saving * 100),
    fallbacks: sum((r) => r.fallbacks),
    same_as_offline: runs.filter((r) => r.sameAsOffline).length,
    meets: {
      calls_per_turn_le_1: turns === 0 || calls / turns <= TARGET_CALLS_PER_TURN,
      quick_replies_0: quickCalls === 0,
      saving_ge_40pct: saving >= TARGET_SAVING,
    },
  };
}

function table(rows: Array<[string, FlowFigures]>): string {
  const head = ['flow', 'goldens', 'turns', 'cmd', 'naive', 'calls', 'calls/turn', 'completed', 'calls/completed', 'naive/completed', '0-call exact', 'QR clicks (calls)', 'saving', 'same end'];
  const body = rows.map(([id, f]) => [
    id, String(f.goldens), String(f.turns), String(f.command_turns), String(f.naive_calls), String(f.calls), f.calls_per_turn.toFixed(2),
    String(f.completed), f.calls_per_completed_conversation === null ? '—' : f.calls_per_completed_conversation.toFixed(2),
    f.naive_per_completed_conversation === null ? '—' : f.naive_per_completed_conversation.toFixed(2),
    String(f.zero_call_exact_turns), `${f.quick_reply_clicks} (${f.quick_reply_calls})`, `${f.saving_pct.toFixed(1)}%`, `${f.same_as_offline}/${f.goldens}`,
  ]);
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const { goldens, skipped } = discoverBenchGoldens({ includeReplay: INCLUDE_REPLAY, includeFixtures: INCLUDE_FIXTURES });
  const mirror = await startMirror();
  const byFlow = new Map<string, GoldenRun[]>();
  try {
    for (const g of goldens) {
      const run = await runGolden(g, mirror);
      const list = byFlow.get(g.group) ?? [];
      list.push(run);
      byFlow.set(g.group, list);
    }
  } finally {
    await mirror.close();
  }
  const rows = [...byFlow].sort(([a], [b]) => a.localeCompare(b)).map(([id, runs]) => [id, figures(runs)] as [string, FlowFigures]);
  const total = figures([...byFlow.values()].flat());
  const totalCalls = total.calls;

  if (JSON_OUT) {
    process.stdout.write(JSON.stringify(Object.fromEntries(rows), null, 2) + '\n');
    return;
  }

  const out: string[] = [];
  out.push('LLM calls of the hybrid AnthropicExtractor on the shipped goldens (issue 6, item 9)');
  out.push('Model: a local MIRROR of the offline rules (bench/llm/mirror.ts) — each call is answered with the offline');
  out.push("extractor's proposal for the same message, so these figures count the hybrid rule's calls, not model quality.");
  out.push(`Goldens: ${goldens.length} run (extractor: rules${INCLUDE_REPLAY ? ' and replay' : ''}), ${skipped.length} skipped.`);
  out.push('');
  out.push(table([...rows, ['ALL', total]]));
  out.push('');
  out.push('turns = scripted user messages; cmd = flow commands (no extraction); naive = one call per non-command turn;');
  out.push('0-call exact = turns the exact rule settled offline; QR clicks = messages equal to a quick reply just offered (model calls they made);');
  out.push('saving = 1 - calls/naive; same end = final status/node/path/answers identical to a plain offline run.');
  out.push('');
  const byRule = Object.entries(total.zero_call_by_rule).map(([k, v]) => `${k} ${v}`).join(', ');
  out.push(`0-call turns by rule: ${byRule || 'none'}`);
  out.push(`Mirror: ${mirror.counts.requests} requests (extractor counted ${totalCalls}), ${mirror.counts.multiBlock} answered with >1 tool_use block, ${mirror.counts.declined} answered with text (no offered tool fits an empty proposal at the path prompt),\n  ${mirror.counts.mismatched} prompts without the tapped message, ${total.fallbacks} offline fallbacks (each still counted as a call).`);
  const differing = [...byFlow.values()].flat().filter((r) => !r.sameAsOffline);
  for (const r of differing) out.push(`  end differs from offline: ${r.file}: ${r.difference}`);
  for (const r of [...byFlow.values()].flat()) for (const d of r.fallbackDetails) out.push(`  fallback in ${r.file}: ${d}`);
  out.push('');
  out.push('Targets (issue 6): ≤ 1 call per user turn · 0 calls for quick-reply clicks · ≥ 40% fewer calls than naive');
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  for (const [id, f] of [...rows, ['ALL', total] as [string, FlowFigures]]) {
    out.push(`  ${id.padEnd(Math.max(...rows.map(([k]) => k.length), 3))}  calls/turn ${f.calls_per_turn.toFixed(2)} ${verdict(f.meets.calls_per_turn_le_1)} · quick replies ${f.quick_reply_calls} calls ${verdict(f.meets.quick_replies_0)} · saving ${f.saving_pct.toFixed(1)}% ${verdict(f.meets.saving_ge_40pct)}`);
  }
  if (skipped.length) {
    out.push('');
    out.push('Skipped:');
    for (const s of skipped) out.push(`  ${s.file}: ${s.reason}`);
  }
  console.log(out.join('\n'));
}

await main();
