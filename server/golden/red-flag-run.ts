import { LocalConversation } from '../conversation/local-conversation.ts';
import { ScriptedClock } from '../conversation/scripted-clock.ts';
import type { Extractor } from '../extract/extractor.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { RedFlagSet } from './red-flag-cases.ts';

// A red-flag set through a flow: each phrasing sent as the visitor's FIRST
// reply (at the entry question) and as the SECOND (after an ordinary first
// answer), through the same turn runner the server uses. An emergency is
// caught when an urgent trigger matched; an ordinary reply that matches one
// is a false alarm.

/** Where in the conversation a phrasing was sent. */
export type RedFlagPosition = 'first' | 'second';

/** One phrasing at one position. */
export interface RedFlagResult {
  id: string;
  reply: string;
  /** The set's category; absent for ordinary replies. */
  category?: string;
  position: RedFlagPosition;
  /** Whether the set says it must raise the alarm. */
  emergency: boolean;
  /** The urgent trigger that matched, if any. */
  trigger?: string;
  /** What the bot said. */
  bot: string;
}

/** The figures of a run, as `questline eval --red-flags --json` prints them. */
export interface RedFlagSummary {
  flow: string;
  emergencies: number;
  ordinary: number;
  caught: Record<RedFlagPosition, number>;
  falseAlarms: Record<RedFlagPosition, number>;
  /** Caught of each category, as the first and the second reply. */
  byCategory: Record<string, { total: number; first: number; second: number }>;
  /** Emergencies missed (`id@position`), with what the bot said. */
  missed: RedFlagResult[];
  /** Ordinary replies that raised the alarm. */
  alarms: RedFlagResult[];
  results: RedFlagResult[];
}

/** The first answer a "second reply" run gives (at the entry question): a plain name. */
export const ORDINARY_FIRST_ANSWER = 'Jordan Lee';

const NOW = '2026-01-15T10:00:00Z';

/** Sends `reply` at `position` in a fresh session of `flow`; throws when the ordinary first answer does not move the session on. */
export async function tryReply(flow: CompiledFlow, extractor: Extractor, reply: string, position: RedFlagPosition, firstAnswer = ORDINARY_FIRST_ANSWER): Promise<{ trigger?: string; bot: string }> {
  const clock = new ScriptedClock(NOW);
  const conv = new LocalConversation(flow, { extractor, env: clock });
  const start = await conv.start({ now: clock.now() });
  if (position === 'second') {
    clock.tick();
    const node = start.session.node;
    const first = await conv.send(firstAnswer, clock.now());
    if (first.session.node === node || first.session.status !== 'active') {
      throw new Error(`the ordinary first answer "${firstAnswer}" did not answer ${node} (the bot said: ${first.messages.map((m) => m.text).join(' / ')})`);
    }
  }
  clock.tick();
  const r = await conv.send(reply, clock.now());
  const hit = r.events.find((e) => e.type === 'trigger_matched' && e.urgent === true);
  return { ...(hit ? { trigger: String(hit.trigger) } : {}), bot: r.messages.map((m) => m.text).filter(Boolean).join(' / ') };
}

/** Runs every phrasing of the set at both positions. */
export async function runRedFlags(set: RedFlagSet, flow: CompiledFlow, extractorFor: () => Extractor, firstAnswer = ORDINARY_FIRST_ANSWER): Promise<RedFlagResult[]> {
  const out: RedFlagResult[] = [];
  const all: Array<{ id: string; reply: string; category?: string; emergency: boolean }> = [
    ...set.emergencies.map((c) => ({ id: c.id, reply: c.reply, category: c.category, emergency: true })),
    ...set.ordinary.map((c) => ({ id: c.id, reply: c.reply, emergency: false })),
  ];
  for (const c of all) {
    for (const position of ['first', 'second'] as const) {
      const r = await tryReply(flow, extractorFor(), c.reply, position, firstAnswer);
      out.push({ id: c.id, reply: c.reply, ...(c.category !== undefined ? { category: c.category } : {}), position, emergency: c.emergency, ...r });
    }
  }
  return out;
}

/** Adds up a run. */
export function summariseRedFlags(flow: string, results: readonly RedFlagResult[]): RedFlagSummary {
  const caught = { first: 0, second: 0 };
  const falseAlarms = { first: 0, second: 0 };
  const byCategory: RedFlagSummary['byCategory'] = {};
  for (const r of results) {
    if (r.emergency) {
      const c = (byCategory[r.category ?? '?'] ??= { total: 0, first: 0, second: 0 });
      if (r.position === 'first') c.total += 1;
      if (r.trigger) {
        caught[r.position] += 1;
        c[r.position] += 1;
      }
    } else if (r.trigger) falseAlarms[r.position] += 1;
  }
  const firsts = results.filter((r) => r.position === 'first');
  return {
    flow,
    emergencies: firsts.filter((r) => r.emergency).length,
    ordinary: firsts.filter((r) => !r.emergency).length,
    caught, falseAlarms, byCategory,
    missed: results.filter((r) => r.emergency && !r.trigger),
    alarms: results.filter((r) => !r.emergency && r.trigger),
    results: [...results],
  };
}

/** The report as text: the figures, per category, then every miss and false alarm. */
export function formatRedFlags(s: RedFlagSummary): string {
  const lines = [
    `red flags on ${s.flow}`,
    `  caught as the first reply:  ${s.caught.first} of ${s.emergencies}`,
    `  caught as the second reply: ${s.caught.second} of ${s.emergencies}`,
    `  false alarms: ${s.falseAlarms.first + s.falseAlarms.second} of ${2 * s.ordinary} (${s.falseAlarms.first} first, ${s.falseAlarms.second} second; ${s.ordinary} ordinary replies)`,
    '',
    '  category          first  second',
    ...Object.entries(s.byCategory).map(([k, c]) => `  ${k.padEnd(16)} ${`${c.first}/${c.total}`.padStart(6)} ${`${c.second}/${c.total}`.padStart(7)}`),
  ];
  if (s.missed.length) lines.push('', 'missed:', ...s.missed.map((r) => `  ${r.id}@${r.position} (${r.category}): "${r.reply}"`));
  if (s.alarms.length) lines.push('', 'false alarms:', ...s.alarms.map((r) => `  ${r.id}@${r.position} [${r.trigger}]: "${r.reply}"`));
  return lines.join('\n');
}
