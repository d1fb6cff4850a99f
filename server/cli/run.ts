import { ScriptedClock } from '../conversation/scripted-clock.ts';
import { LocalConversation, type Reply } from '../conversation/local-conversation.ts';
import type { BotMessage } from '../conversation/messages.ts';
import type { QuestlineConfig } from '../project-config.ts';
import { auditTrace, type AuditIssue } from '../engine/audit.ts';
import { answerValues, type Session } from '../engine/session.ts';
import type { EngineEvent, StartInit } from '../engine/types.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { compileFile } from '../flow/document.ts';
import { checkFileImplementations, namesOf } from '../catalog/implementations-check.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';
import { ISO_INSTANT, loadScript } from '../golden/script.ts';
import { playTurn, turnText } from '../golden/play-turn.ts';
import { toolCalls } from '../golden/run-golden.ts';
import { matchLocale } from '../engine/locale.ts';
import { baseLanguage } from '../language/registry.ts';
import { ReplayExtractor } from '../extract/replay.ts';

/** The session clock of a scripted run when neither the file nor `--now` sets one. */
export const DEFAULT_NOW = '2026-01-15T10:00:00Z';


/**
 * Compiles a flow for a command; prints its errors (file:line:col) and returns
 * null when it cannot run. A validator or action the flow names that is not
 * among the project's implementations (none without a questline.config) is an
 * error too, so it never surfaces mid-conversation.
 */
export function compileForCli(file: string, io: CliIo, impl?: QuestlineConfig): CompiledFlow | null {
  const result = compileFile(file);
  const missing = result.kind === 'flow' && result.flow ? checkFileImplementations(file, result.flow, result.ir, namesOf(impl ?? {})) : [];
  if (result.kind === 'flow' && result.flow && !hasErrors(result.diagnostics) && missing.length === 0) return result.flow;
  for (const d of [...result.diagnostics, ...missing]) if (d.severity === 'error') io.err(formatDiagnostic(d));
  if (result.kind === 'overlay') io.err(`${file}: an overlay, not a flow; merge it onto its base flow first`);
  return null;
}

/** What to tell the author when `--locale` (or a golden's `locale:`) will not be spoken as asked: a flow without `locales`, or one that lacks this language. */
export function localeNote(flow: CompiledFlow, locale: string, command = 'chat'): string | null {
  if (!flow.i18n) return `questline ${command}: ${flow.id} declares no locales; --locale ${locale} is ignored (the flow speaks as written)`;
  const match = matchLocale(flow, locale);
  if (match !== undefined && baseLanguage(match) === baseLanguage(locale)) return null;
  return `questline ${command}: ${flow.id} has no ${locale} translation (its locales: ${flow.i18n.locales.join(', ')}); speaking ${match}`;
}

/** Checks an ISO 8601 `--now` value. */
export function validNow(value: string): boolean {
  return ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));
}

const shown = (v: unknown) => (v === '[pii]' ? v : JSON.stringify(v));

/** The compact one-line form of an event, e.g. `[t2] answer_set court_size=420 @q.court_size`. */
export function formatEvent(e: EngineEvent): string {
  const at = e.node !== null ? ` @${e.node}` : '';
  const str = (k: string) => String(e[k]);
  let body: string;
  switch (e.type) {
    case 'node_enter':
      return `[t${e.turn}] node_enter ${e.node} (${str('nodeType')})`;
    case 'node_exit':
      return e.skipped !== undefined
        ? `[t${e.turn}] node_exit ${e.node} skipped (${str('skipped')})`
        : `[t${e.turn}] node_exit ${e.node} → ${str('to')} via ${str('edge')}${e.on ? ` [on ${str('on')}]` : ''}`;
    case 'subgraph_enter':
      return `[t${e.turn}] subgraph_enter ${str('subgraph')} from ${e.node}`;
    case 'subgraph_exit':
      return `[t${e.turn}] subgraph_exit ${str('subgraph')} back to ${e.node}`;
    case 'guard':
      body = `guard ${str('edge')} → ${str('result')}`;
      break;
    case 'answer_set':
      body = `answer_set ${str('key')}=${shown(e.value)}${e.source !== 'user' ? ` (${str('source')})` : ''}`;
      break;
    case 'answer_skipped':
      body = `answer_skipped ${str('key')}`;
      break;
    case 'validation_failed':
      body = `validation_failed ${e.key !== undefined ? str('key') : 'path'}: ${str('reason')}${e.attempt !== undefined ? ` (attempt ${str('attempt')})` : ''}${e.source ? ` (${str('source')})` : ''}`;
      break;
    case 'path_vote': {
      const scores = e.scores && typeof e.scores === 'object' ? Object.entries(e.scores).map(([k, v]) => `${k}=${String(v)}`).join(' ') : '';
      body = e.ignored !== undefined ? `path_vote ${str('path')} ignored: ${str('ignored')}`
        : `path_vote ${str('path')} +${str('weight')} (${scores}; locks at ${str('threshold')})`;
      break;
    }
    case 'path_switch':
      body = `path_switch ${e.from === null ? 'none' : str('from')} → ${str('to')}`;
      break;
    case 'path_lock':
      body = `path_lock ${str('path')} (${str('reason')})`;
      break;
    case 'action_call':
      body = `action_call ${str('call')} ${JSON.stringify(e.input ?? {})}`;
      break;
    case 'action_result':
      body = `action_result ${str('call')} ok${e.cached ? ' (cached)' : ''}${e.durationMs !== undefined ? ` in ${str('durationMs')} ms` : ''}`;
      break;
    case 'action_failed':
      body = `action_failed ${str('call')}: ${str('reason')}`;
      break;
    case 'interrupt':
      body = `interrupt ${str('when')}${e.role ? ` for ${str('role')}` : ''}`;
      break;
    case 'command':
      body = `command ${str('command')}${e.reason ? `: ${str('reason')}` : ''}`;
      break;
    case 'back':
      body = `back to ${str('to')}, undoing ${Array.isArray(e.undone) && e.undone.length > 0 ? e.undone.join(', ') : 'nothing'}`;
      break;
    case 'operator':
      body = `operator ${str('decision')}${e.by ? ` by ${str('by')}` : ''}`;
      break;
    case 'completed':
    case 'escalated':
    case 'abandoned':
    case 'error':
      body = `${e.type}${e.outcome ? ` outcome=${str('outcome')}` : ''}${e.reason ? `: ${str('reason')}` : ''}`;
      break;
    case 'proposal_rejected':
    case 'llm_proposal_rejected':
      body = `${e.type} ${str('key')}: ${str('reason')}`;
      break;
    default: {
      const { type, turn: _turn, node: _node, ...rest } = e;
      body = `${type} ${JSON.stringify(rest)}`;
    }
  }
  return `[t${e.turn}] ${body}${at}`;
}

/** How a bot message reads in a terminal: progress, text, numbered quick replies. */
export function messageLines(m: BotMessage): string[] {
  const lines: string[] = [];
  if (m.progress) lines.push(`[${m.progress.answered}/${m.progress.total}]`);
  lines.push(`bot: ${m.text}`);
  (m.quickReplies ?? []).forEach((r, i) => lines.push(`  ${i + 1}) ${r}`));
  if (m.multiple && m.quickReplies) lines.push('  (pick any: numbers separated by commas, e.g. 1,3)');
  return lines;
}

/** The path as goldens' `expect.path` reads it: the one followed now, and whether it is locked. */
export function pathView(s: Session): { active: string | null; locked: boolean } {
  return { active: s.path.tentative, locked: s.path.locked };
}

/** One played turn: the user's line (null for the bot's opening), what the bot said, what happened. */
interface PlayedTurn {
  user: string | null;
  node: string | null;
  path: { active: string | null; locked: boolean };
  messages: BotMessage[];
  events: EngineEvent[];
}

/** Flags of `questline run`. */
export interface RunOptions {
  script?: string;
  json?: boolean;
  audit?: boolean;
  now?: string;
  /** The visitor's language (`de`, `fr-CA`, …); beats the golden's `locale:`. */
  locale?: string;
  /** The project's implementations (questline.config): the flow is checked against them and runs with them. */
  implementations?: QuestlineConfig;
}

/** `questline run FLOW --script FILE`: plays a golden's user turns and prints the conversation and its trace. */
export async function runCommand(flowFile: string, opts: RunOptions, io: CliIo): Promise<number> {
  if (!opts.script) {
    io.err('questline run: --script FILE is required');
    return EXIT_USAGE;
  }
  if (opts.now !== undefined && !validNow(opts.now)) {
    io.err(`questline run: --now ${JSON.stringify(opts.now)} is not an ISO 8601 date-time such as ${DEFAULT_NOW}`);
    return EXIT_USAGE;
  }
  const flow = compileForCli(flowFile, io, opts.implementations);
  if (!flow) return EXIT_FAILED;
  const loaded = loadScript(opts.script);
  if (!loaded.ok) {
    for (const d of loaded.diagnostics) io.err(formatDiagnostic(d));
    return EXIT_FAILED;
  }
  const script = loaded.script;
  if (script.tenant !== undefined) io.err(`${opts.script}: note: tenant '${script.tenant}' is ignored; run plays the flow file as given`);
  // a recorded-LLM golden replays its `llm:` blocks, as `questline test` does, so it reaches the same ending
  let replay: ReplayExtractor | undefined;
  if (script.extractor === 'replay') {
    try {
      replay = new ReplayExtractor(script.turns.map((t) => toolCalls(t.llm)));
    } catch (err) {
      io.err(`${opts.script}: ${(err as Error).message}`);
      return EXIT_FAILED;
    }
  }
  const locale = opts.locale ?? script.locale;
  if (locale !== undefined) {
    const note = localeNote(flow, locale, 'run');
    if (note) io.err(note);
  }

  // an explicit flag beats the file, as everywhere on the command line
  const start = opts.now ?? script.now ?? DEFAULT_NOW;
  const clock = new ScriptedClock(start);
  const startedAt = clock.now();
  const conversation = new LocalConversation(flow, { env: clock, ...opts.implementations, ...(replay ? { extractor: replay } : {}) });
  const given: StartInit['given'] | undefined = script.given
    ? { ...(script.given.answers ? { answers: script.given.answers } : {}), ...(script.given.path !== undefined ? { path: script.given.path } : {}) }
    : undefined;
  const played: PlayedTurn[] = [];
  const record = (user: string | null, r: Reply) =>
    played.push({ user, node: r.session.node, path: pathView(r.session), messages: r.messages, events: r.events });
  record(null, await conversation.start({ ...(given ? { given } : {}), ...(locale !== undefined ? { locale } : {}) }));
  for (const [i, t] of script.turns.entries()) {
    clock.tick();
    replay?.seek(i);
    record(turnText(t), await playTurn(conversation, t, clock.now()));
  }

  const session = conversation.session;
  const answers = answerValues(session);
  const issues: AuditIssue[] | undefined = opts.audit ? auditTrace(flow, conversation.trace) : undefined;
  if (opts.json) {
    io.out(JSON.stringify({
      flow: flow.id,
      revision: flow.revision,
      status: session.status,
      ...(session.outcome !== undefined ? { outcome: session.outcome } : {}),
      answers,
      turns: played,
      trace: conversation.trace,
      ...(issues ? { audit: issues } : {}),
    }, null, 2));
  } else {
    const lines = [`${flow.id} (revision ${flow.revision}) — ${opts.script}, ${script.turns.length} turn${script.turns.length === 1 ? '' : 's'}, clock ${startedAt}${locale !== undefined ? `, locale ${locale}` : ''}${replay ? ', replaying the recorded llm: calls' : ''}`];
    for (const t of played) {
      lines.push('');
      if (t.user !== null) lines.push(`you: ${t.user}`);
      for (const m of t.messages) lines.push(...messageLines(m));
      for (const e of t.events) lines.push(`  ${formatEvent(e)}`);
    }
    lines.push('', ...summaryLines(session));
    io.out(lines.join('\n'));
  }
  if (issues) {
    for (const i of issues) io.err(`${opts.script}: audit [${i.code}]${i.turn !== undefined ? ` t${i.turn}` : ''}${i.node ? ` @${i.node}` : ''}: ${i.message}`);
    io.err(issues.length === 0 ? 'audit: no issues' : `audit: ${issues.length} issue${issues.length > 1 ? 's' : ''}`);
    if (issues.length > 0) return EXIT_FAILED;
  }
  return EXIT_OK;
}

/** Status, outcome and answers, as both `run` and `chat` end. */
export function summaryLines(session: Session): string[] {
  const answers = answerValues(session);
  const keys = Object.keys(answers);
  return [
    `status: ${session.status}${session.outcome !== undefined ? ` (outcome: ${session.outcome})` : ''}`,
    `answers:${keys.length === 0 ? ' none' : ''}`,
    ...keys.map((k) => `  ${k}: ${JSON.stringify(answers[k])}`),
  ];
}
