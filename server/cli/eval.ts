import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Extractor } from '../extract/extractor.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import { ReplayExtractor } from '../extract/replay.ts';
import { loadEvalFile, type ResolvedCase } from '../golden/eval-cases.ts';
import type { EvalFlowRef } from '../golden/eval-flow.ts';
import { cassettePath, readCassette, replayCase, writeCassette, type Cassette } from '../golden/eval-cassettes.ts';
import { formatSummary, summarise } from '../golden/eval-report.ts';
import { runCases, type ExtractorFor } from '../golden/eval-run.ts';
import { loadAnthropic, RecordingExtractor, type RecordedTurn } from '../golden/record.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';
import { recordOptions } from './test.ts';

export interface EvalOptions {
  extractor?: string;
  json?: boolean;
  /** Record the Claude run's tool calls here (one cassette per case file). */
  record?: string;
  /** Where `--extractor replay` reads cassettes. */
  cassettes?: string;
  /** Also list the clarified cases. */
  verbose?: boolean;
  /** Judge every case question that is a question of this shipped flow with its declaration (overrides the files' `flow:` header). */
  through?: EvalFlowRef;
  /** Ignore the files' `flow:` header: every question as declared. */
  labelsOnly?: boolean;
}

const EXTRACTORS = ['rules', 'claude', 'replay'] as const;

/** The case files named: files as given, folders' *.yaml (sorted). */
function caseFiles(paths: readonly string[]): string[] {
  return paths.flatMap((p) => statSync(p).isDirectory()
    ? readdirSync(p).filter((f) => /\.ya?ml$/.test(f) && !/\.cassette\.ya?ml$/.test(f)).sort().map((f) => join(p, f))
    : [p]);
}

/**
 * `questline eval CASES… [--extractor rules|claude|replay] [--json] [--record DIR] [--cassettes DIR]
 * [--tenant T [--flow ID] [--flows DIR] | --labels-only]`: runs labelled replies through the extractor and the
 * engine (each case question through the shipped flow the file's `flow:` header or `--tenant` names, when it is
 * one of that flow's questions) and prints,
 * per answer type, correct / clarified / silently wrong. Exit 1 when any
 * case is silently wrong (or cannot run), 2 on a usage error.
 */
export async function evalCommand(paths: readonly string[], opts: EvalOptions, io: CliIo): Promise<number> {
  const kind = opts.extractor ?? (opts.record ? 'claude' : 'rules');
  if (!(EXTRACTORS as readonly string[]).includes(kind)) {
    io.err(`questline eval: --extractor must be one of ${EXTRACTORS.join(', ')}`);
    return EXIT_USAGE;
  }
  if (opts.record && kind !== 'claude') {
    io.err('questline eval: --record records a Claude run (--extractor claude)');
    return EXIT_USAGE;
  }
  if (kind === 'replay' && !opts.cassettes) {
    io.err('questline eval: --extractor replay needs --cassettes DIR (written by --record DIR)');
    return EXIT_USAGE;
  }
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length) {
    io.err(`questline eval: no such file or folder: ${missing.join(', ')}`);
    return EXIT_USAGE;
  }
  let cases: ResolvedCase[];
  try {
    if (opts.through && opts.labelsOnly) throw new Error('--labels-only and --tenant/--flow exclude each other');
    const load = { ...(opts.through ? { flow: opts.through } : {}), ...(opts.labelsOnly ? { labelsOnly: true } : {}) };
    cases = caseFiles(paths).flatMap((f) => loadEvalFile(f, load));
  } catch (err) {
    io.err(`questline eval: ${(err as Error).message}`);
    return EXIT_USAGE;
  }
  const dup = cases.find((c, i) => cases.findIndex((o) => o.id === c.id) !== i);
  if (dup) {
    io.err(`questline eval: case id '${dup.id}' appears twice (${dup.file})`);
    return EXIT_USAGE;
  }
  if (cases.length === 0) {
    io.err(`questline eval: no cases under ${paths.join(', ')}`);
    return EXIT_USAGE;
  }

  let extractorFor: ExtractorFor;
  let recorder: RecordingExtractor | undefined;
  let model: string | undefined;
  if (kind === 'rules') {
    const offline = new OfflineExtractor();
    extractorFor = () => offline;
  } else if (kind === 'replay') {
    const tapes = new Map<string, Cassette>();
    try {
      for (const file of new Set(cases.map((c) => c.file))) tapes.set(file, readCassette(cassettePath(opts.cassettes!, file)));
    } catch (err) {
      io.err(`questline eval: ${(err as Error).message}`);
      return EXIT_USAGE;
    }
    const unrecorded = cases.filter((c) => !tapes.get(c.file)!.cases[c.id]);
    if (unrecorded.length) io.err(`questline eval: ${unrecorded.length} case(s) have no cassette (they replay as no answer): ${unrecorded.slice(0, 5).map((c) => c.id).join(', ')}${unrecorded.length > 5 ? ', …' : ''}`);
    extractorFor = (c) => replayCase(c, tapes.get(c.file)!.cases[c.id]?.calls);
  } else {
    const options = recordOptions();
    if (typeof options === 'string') {
      io.err(options.replace('questline test --record', 'questline eval --extractor claude'));
      return EXIT_USAGE;
    }
    let anthropic: Awaited<ReturnType<typeof loadAnthropic>>;
    try {
      anthropic = await loadAnthropic('questline eval --extractor claude');
    } catch (err) {
      io.err(`questline eval: ${(err as Error).message}`);
      return EXIT_USAGE;
    }
    model = options.model ?? anthropic.DEFAULT_MODEL;
    if (opts.record) {
      recorder = await RecordingExtractor.create(options);
      extractorFor = () => {
        recorder!.turns.length = 0; // a command reply ("skip") calls no extractor: no stale record from the case before
        recorder!.seek(0);
        return recorder!;
      };
    } else {
      const claude: Extractor = new anthropic.AnthropicExtractor(options);
      extractorFor = () => claude;
    }
  }

  const recorded = new Map<string, Array<[string, RecordedTurn]>>();
  const results = await runCases(cases, extractorFor, recorder ? (c) => {
    const turn = recorder!.turns[0];
    // a reply that is a command word ("skip") reaches no extractor: recorded as such, so every case has its entry
    (recorded.get(c.file) ?? recorded.set(c.file, []).get(c.file)!).push([c.id, turn ?? { calls: [], source: 'command' }]);
  } : undefined);
  for (const [file, turns] of recorded) {
    const out = cassettePath(opts.record!, file);
    writeCassette(out, model, turns);
    io.err(`recorded ${turns.length} case(s) to ${out}`);
  }
  const summary = summarise(results, kind === 'claude' ? `claude${model ? ` (${model})` : ''}` : kind);
  if (opts.json) io.out(JSON.stringify(summary, null, 2));
  else io.out(formatSummary(summary, opts.verbose));
  return summary.silentlyWrong > 0 || summary.errors > 0 ? EXIT_FAILED : EXIT_OK;
}
