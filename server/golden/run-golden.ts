import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseScript, type GoldenScript } from './script.ts';
import { LocalConversation } from '../conversation/local-conversation.ts';
import type { BotMessage } from '../conversation/messages.ts';
import type { Implementations } from '../conversation/implementations.ts';
import { ScriptedClock } from '../conversation/scripted-clock.ts';
import type { EngineEvent } from '../engine/types.ts';
import type { Extractor } from '../extract/extractor.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import { ReplayExtractor } from '../extract/replay.ts';
import { ToolCall, TOOL_NAMES } from '../extract/tool-calls.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { compileFile } from '../flow/document.ts';
import { effectiveFlow, loadLibrary, type Library } from '../catalog/library.ts';
import type { SourceMap } from '../flow/load.ts';
import type { AnthropicExtractorOptions } from '../extract/anthropic/index.ts';
import { checkEnd, checkTurn, type Mismatch } from './expect.ts';
import { RecordingExtractor, writeRecording } from './record.ts';
import { checkFileImplementations, checkImplementations, namesOf } from '../catalog/implementations-check.ts';
import { firstDifference, traceSnapshot } from './trace.ts';
import { playTurn, turnText } from './play-turn.ts';

/** Where the session clock starts when a golden does not say. */
export const GOLDEN_DEFAULT_NOW = '2026-01-15T10:00:00Z';

/** One failed check, with everything needed to fix the flow without a debugger. */
export interface GoldenFailure {
  /** Turn number (1-based), or 'end', 'trace', 'load'. */
  turn: number | 'end' | 'trace' | 'load';
  line?: number;
  user?: string;
  mismatches: Mismatch[];
  /** The turn's events, one line each. */
  trace?: string[];
  message?: string;
}

/** A changed expectation for one turn of an inherited golden (a tenant's intended divergence). */
export interface Override {
  turn: number | 'end';
  expect: Record<string, unknown>;
}

export interface GoldenOptions {
  /** Rewrite the trace snapshot instead of comparing. */
  update?: boolean;
  /** A missing snapshot fails instead of being written. */
  ci?: boolean;
  /** The flows folder for `tenant:` and flow ids (default: the nearest `flows/` above the golden, else ./flows). */
  flowsDir?: string;
  library?: Library;
  /** Run against this tenant's merged flow (inherited goldens), with these overrides. */
  tenant?: string;
  overrides?: readonly Override[];
  /** The project's validators and actions (questline.config); a golden's extractor is its own (offline, replay or recording). */
  implementations?: Pick<Implementations, 'validators' | 'actions'>;
  /** Run against this compiled flow instead of the one the golden names (the Studio's draft). */
  flow?: CompiledFlow;
  /** Skip the trace snapshot (inherited runs: the tenant's flow differs on purpose). */
  noSnapshot?: boolean;
  /**
   * Run against the live model with these options and write each turn's tool
   * calls into the golden's `llm:` blocks (`extractor: replay`); the trace
   * snapshot is rewritten too.
   */
  record?: AnthropicExtractorOptions;
}

/** The outcome of one golden. */
export interface GoldenResult {
  file: string;
  name: string;
  tenant?: string;
  passed: boolean;
  failures: GoldenFailure[];
  flow?: CompiledFlow;
  events: EngineEvent[];
  /** For a flow with `locales`: the nodes whose texts the bot showed, with the locale it spoke (`de q.name`), for per-locale coverage. */
  shown?: string[];
  snapshot?: 'matched' | 'written' | 'updated' | 'missing' | 'changed' | 'skipped';
  /** With `record`: where each turn's recorded calls came from (model, offline, fallback: reason; null for commands). */
  recorded?: Array<string | null>;
}

/** The trace snapshot file of a golden: `x.golden.yaml` → `x.golden.trace`. */
export function snapshotPath(file: string): string {
  return file.replace(/\.golden\.ya?ml$/, '') + '.golden.trace';
}

function findFlowsDir(file: string): string {
  let dir = dirname(resolve(file));
  for (;;) {
    if (existsSync(resolve(dir, 'flows', 'global'))) return resolve(dir, 'flows');
    if (existsSync(resolve(dir, 'global')) && dir.endsWith('flows')) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve('flows');
    dir = up;
  }
}

/** Resolves the golden's flow: a file relative to it, or a flow id (with `tenant:` merged through the packs). */
function resolveFlow(script: GoldenScript, file: string, opts: GoldenOptions): { flow?: CompiledFlow; problems: string[] } {
  const tenant = opts.tenant ?? script.tenant;
  const ref = script.flow;
  if (!ref) return { problems: ['the golden names no flow (flow: path/to/flow.json, or a flow id with tenant:)'] };
  const asFile = resolve(dirname(file), ref);
  const names = namesOf(opts.implementations ?? {});
  if (!tenant && existsSync(asFile)) {
    const r = compileFile(asFile);
    if (r.kind === 'flow' && r.flow && !hasErrors(r.diagnostics)) {
      // a validator or action the flow names that the project does not register fails the golden at load, not mid-run
      const missing = checkFileImplementations(asFile, r.flow, r.ir, names);
      return missing.length ? { problems: missing.map(formatDiagnostic) } : { flow: r.flow, problems: [] };
    }
    return { problems: r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic) };
  }
  const library = opts.library ?? loadLibrary(opts.flowsDir ?? findFlowsDir(file));
  let id = ref;
  if (existsSync(asFile)) {
    const r = compileFile(asFile);
    if (r.kind === 'flow' && r.ir) id = r.ir.id;
  }
  const eff = effectiveFlow(library, id, tenant);
  if (eff.flow && !hasErrors(eff.diagnostics)) {
    const missing = checkImplementations(eff.flow, names);
    return missing.length ? { problems: missing.map(formatDiagnostic) } : { flow: eff.flow, problems: [] };
  }
  return { problems: eff.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic) };
}

/** A turn's recorded LLM calls: a list of `{ tool, input }`, or a record `{ tool: input }`. */
export function toolCalls(llm: unknown): ToolCall[] {
  if (llm === undefined) return [];
  const list = Array.isArray(llm)
    ? llm
    : Object.entries(llm as Record<string, unknown>).map(([tool, input]) => ({ tool, input }));
  return list.flatMap((c) => {
    const parsed = ToolCall.safeParse(c);
    if (!parsed.success) throw new Error(`a recorded llm call must be one of ${TOOL_NAMES.join(', ')} with an input object`);
    return [parsed.data];
  });
}

const turnLine = (map: SourceMap, i: number) => map.at(['turns', i])?.line;

/** Runs one golden: plays its turns, checks every expectation, compares the trace snapshot. */
export async function runGolden(file: string, opts: GoldenOptions = {}): Promise<GoldenResult> {
  const text = readFileSync(file, 'utf8');
  const parsed = parseScript(text, file);
  const fail = (message: string): GoldenResult => ({ file, name: file, passed: false, failures: [{ turn: 'load', mismatches: [], message }], events: [] });
  if (!parsed.ok) return fail(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  const { script, map } = parsed;
  const name = script.name ?? file;
  const tenant = opts.tenant ?? script.tenant;
  const { flow, problems } = opts.flow ? { flow: opts.flow, problems: [] } : resolveFlow(script, file, opts);
  if (!flow) return { ...fail(`the flow does not load:\n${problems.join('\n')}`), name, ...(tenant ? { tenant } : {}) };

  let extractor: Extractor;
  let replay: ReplayExtractor | RecordingExtractor | undefined;
  try {
    replay = opts.record ? await RecordingExtractor.create(opts.record)
      : script.extractor === 'replay' ? new ReplayExtractor(script.turns.map((t) => toolCalls(t.llm))) : undefined;
    extractor = replay ?? new OfflineExtractor();
  } catch (err) {
    return { ...fail((err as Error).message), name };
  }
  const clock = new ScriptedClock(script.now ?? GOLDEN_DEFAULT_NOW);
  const conv = new LocalConversation(flow, { ...opts.implementations, extractor, env: clock });
  conv.staffed = script.staffed === true;
  const failures: GoldenFailure[] = [];
  const overrides = new Map((opts.overrides ?? []).map((o) => [o.turn, o.expect]));
  const shown = new Set<string>();
  const note = (r: { session: { locale?: string }; messages: ReadonlyArray<{ nodeId: string | null }> }) => {
    if (!flow.i18n) return;
    for (const m of r.messages) if (m.nodeId !== null) shown.add(`${r.session.locale ?? flow.i18n.defaultLocale} ${m.nodeId}`);
  };
  note(await conv.start({ ...(script.given ? { given: script.given } : {}), ...(script.locale ? { locale: script.locale } : {}) }));
  for (const [i, t] of script.turns.entries()) {
    clock.tick();
    replay?.seek(i);
    let reply;
    try {
      reply = await playTurn(conv, t, clock.now());
    } catch (err) {
      failures.push({ turn: i + 1, ...(turnLine(map, i) ? { line: turnLine(map, i)! } : {}), user: turnText(t), mismatches: [], message: (err as Error).message });
      break;
    }
    note(reply);
    const expect = overrides.get(i + 1) ?? t.expect;
    if (!expect) continue;
    const mismatches = checkTurn(expect, { session: reply.session, messages: reply.messages, events: reply.events });
    if (mismatches.length) {
      const line = turnLine(map, i);
      failures.push({ turn: i + 1, ...(line ? { line } : {}), user: turnText(t), mismatches, trace: reply.events.map(eventLine), message: botText(reply.messages) });
    }
  }
  const end = overrides.get('end') ?? script.end;
  if (end) {
    const mismatches = checkEnd(end, conv.session);
    if (mismatches.length) {
      const line = map.at(['end'])?.line;
      failures.push({ turn: 'end', ...(line ? { line } : {}), mismatches });
    }
  }
  const events = conv.trace;
  if (replay instanceof RecordingExtractor) {
    // the recording is proven by replaying it at once, which also writes the trace snapshot
    writeRecording(file, replay.turns);
    const recorded = script.turns.map((_, i) => replay.turns[i]?.source ?? null);
    const { record: _r, ...rest } = opts;
    const replayed = await runGolden(file, { ...rest, update: true });
    return { ...replayed, recorded, ...(failures.length ? { passed: false, failures } : {}) };
  }
  let snapshot: GoldenResult['snapshot'] = 'skipped';
  if (!opts.noSnapshot) {
    const snapFile = snapshotPath(file);
    const actual = traceSnapshot(name, flow.revision, events);
    if (opts.update) {
      const before = existsSync(snapFile) ? readFileSync(snapFile, 'utf8') : null;
      if (before !== actual) writeFileSync(snapFile, actual);
      snapshot = before === null ? 'written' : before === actual ? 'matched' : 'updated';
    } else if (!existsSync(snapFile)) {
      if (opts.ci) {
        snapshot = 'missing';
        failures.push({ turn: 'trace', mismatches: [], message: `no trace snapshot ${snapFile}; run questline test --update locally and commit it` });
      } else {
        writeFileSync(snapFile, actual);
        snapshot = 'written';
      }
    } else {
      const diff = firstDifference(readFileSync(snapFile, 'utf8'), actual);
      snapshot = diff ? 'changed' : 'matched';
      if (diff) {
        failures.push({ turn: 'trace', line: diff.line, mismatches: [{ field: 'trace', expected: diff.expected, actual: diff.actual, why: `the trace differs from ${snapFile} at line ${diff.line}` }],
          message: 'accept the new trace with questline test --update if the change is intended' });
      }
    }
  }
  return { file, name, ...(tenant ? { tenant } : {}), passed: failures.length === 0, failures, flow, events, snapshot, ...(flow.i18n ? { shown: [...shown].sort() } : {}) };
}

const eventLine = (e: EngineEvent) => {
  const { type, turn: _t, node, ...rest } = e;
  const brief = Object.entries(rest).filter(([k]) => k !== 'durationMs').map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
  return `${type}${node ? ` @${node}` : ''}${brief ? ` ${brief}` : ''}`;
};

const botText = (messages: readonly BotMessage[]) => messages.map((m) => `bot: ${m.text}`).join('\n');
