import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { ToolCall } from '../extract/tool-calls.ts';
import type { RecordedTurn } from './record.ts';
import type { Extractor } from '../extract/extractor.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import { ReplayExtractor } from '../extract/replay.ts';
import type { ResolvedCase } from './eval-cases.ts';

// Cassettes of an eval run against Claude: per case file, per case id, the
// model's tool calls (or the offline proposal as calls when the hybrid rule or
// a fallback settled the turn), so `--extractor replay` runs the same set in CI
// through the same conversion and validation as the live run.

export const Cassette = z
  .object({
    model: z.string().optional(),
    cases: z.record(z.string(), z.object({ source: z.string(), calls: z.array(ToolCall) }).strict()),
  })
  .strict();
export type Cassette = z.infer<typeof Cassette>;

/**
 * The extractor that replays a case: its own turn from the recorded calls. A cassette records the case's turn only,
 * so a `previous` reply to another question (the turn before) is read by the offline rules.
 */
export function replayCase(c: ResolvedCase, calls: readonly ToolCall[] | undefined): Extractor {
  const replay = new ReplayExtractor([calls ?? []]);
  if (!c.previous || c.previous.question.key === c.question.key) return replay;
  const offline = new OfflineExtractor();
  let turn = 0;
  return { name: replay.name, extract: (req) => (turn++ === 0 ? offline.extract(req) : replay.extract(req)) };
}

/** The cassette file of a case file in `dir`: `number.yaml` → `dir/number.cassette.yaml`. */
export function cassettePath(dir: string, casesFile: string): string {
  return join(dir, `${basename(casesFile).replace(/\.ya?ml$/, '')}.cassette.yaml`);
}

/** Reads a cassette; throws when it is not one. A missing file is an empty cassette. */
export function readCassette(file: string): Cassette {
  if (!existsSync(file)) return { cases: {} };
  const parsed = Cassette.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: not a cassette: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

/** Writes the recorded turns of one case file (case ids in run order). */
export function writeCassette(file: string, model: string | undefined, turns: ReadonlyArray<readonly [string, RecordedTurn]>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const body: Cassette = { ...(model ? { model } : {}), cases: Object.fromEntries(turns.map(([id, t]) => [id, { source: t.source, calls: t.calls }])) };
  writeFileSync(file, `# questline eval --record: the model's tool calls per case; replay with --extractor replay --cassettes\n${stringify(body, { lineWidth: 0 })}`);
}
