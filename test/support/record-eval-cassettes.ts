import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExtractionRequest, Extractor, Proposal } from '../../server/extract/extractor.ts';
import { exactRule } from '../../server/extract/anthropic/hybrid.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { loadEvalFile, type ResolvedCase } from '../../server/golden/eval-cases.ts';
import { cassettePath, writeCassette } from '../../server/golden/eval-cassettes.ts';
import { summarise, formatSummary } from '../../server/golden/eval-report.ts';
import { runCases } from '../../server/golden/eval-run.ts';
import { RecordingExtractor, type RecordedTurn } from '../../server/golden/record.ts';
import { startFakeAnthropic, tool, type FakeReply } from './fake-anthropic.ts';

// Records test/eval's Claude cassettes WITHOUT a model: the fake Anthropic
// server answers each case that reaches the model with the case's label
// (the value, nothing for a re-ask, unknown_answer for a skip), through the
// real SDK, extractor, hybrid rule and recorder. The cassettes therefore test
// the Claude path's plumbing (tool schemas, conversion, the engine's checks,
// the hybrid rule's offline shortcuts), not a model's understanding: record
// against the live model with `questline eval --extractor claude --record`.
//
//   node --import tsx test/support/record-eval-cassettes.ts [CASES_DIR] [OUT_DIR]

const MODEL = 'claude-haiku-4-5';

/** What an ideal model answers for a case: its label as a tool call. */
function labelled(c: ResolvedCase): FakeReply {
  if (c.expect.kind === 'skip') return tool('unknown_answer', { key: c.question.key });
  if (c.expect.kind === 'reask') return tool('update_answers', { updates: {} });
  return tool('update_answers', { updates: { [c.question.key]: c.expect.values[0] }, confidence: 0.9 });
}

async function record(casesDir: string, outDir: string): Promise<void> {
  const fake = await startFakeAnthropic();
  try {
    const recorder = await RecordingExtractor.create({ apiKey: 'sk-fake-no-model', baseURL: fake.url, model: MODEL, maxRetries: 0 });
    const offline = new OfflineExtractor();
    const files = readdirSync(casesDir).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(casesDir, f));
    const cases = files.flatMap((f) => loadEvalFile(f));
    const recorded = new Map<string, Array<[string, RecordedTurn]>>();
    const scripted = (c: ResolvedCase): Extractor => {
      let turn = 0;
      return {
        name: recorder.name,
        async extract(req: ExtractionRequest): Promise<Proposal> {
          // script a reply only when the model will be called (the hybrid rule settles exact replies offline)
          if (!exactRule(req, await offline.extract(req))) fake.script(labelled(c));
          // each turn in its own slot: the cassette keeps the case's first turn (a follow-up at the same question is
          // replayed from it), not a later turn at the question after
          recorder.seek(turn++);
          return recorder.extract(req);
        },
      };
    };
    const results = await runCases(cases, (c) => {
      recorder.turns.length = 0;
      recorder.seek(0);
      return scripted(c);
    }, (c) => {
      // (a case whose previous reply went to another question replays that reply offline and its own turn from the cassette:
      // its own turn is the second)
      const turn = recorder.turns[c.previous && c.previous.question.key !== c.question.key ? 1 : 0];
      // a reply that is a command word ("skip") reaches no extractor: recorded as such, so every case has its entry
      (recorded.get(c.file) ?? recorded.set(c.file, []).get(c.file)!).push([c.id, turn ?? { calls: [], source: 'command' }]);
    });
    if (fake.pending() !== 0) throw new Error(`${fake.pending()} scripted replies were not used`);
    for (const [file, turns] of recorded) writeCassette(cassettePath(outDir, file), `${MODEL} (fake server, scripted to the labels)`, turns);
    console.log(formatSummary(summarise(results, 'claude (fake server scripted to the labels)')));
    console.log(`model calls: ${fake.requests.length} of ${cases.length} cases`);
  } finally {
    await fake.close();
  }
}

await record(process.argv[2] ?? 'test/eval', process.argv[3] ?? 'test/eval/cassettes');
