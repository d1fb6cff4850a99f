import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

// Red-flag sets (test/eval/red-flags/*.yaml): emergencies a visitor may type
// at any question, by category, and ordinary replies that must not raise the
// alarm. Written by someone who has not read the trigger lists.

const RedFlagCase = z.strictObject({
  id: z.string().min(1),
  /** The reply exactly as the visitor typed it. */
  reply: z.string().min(1),
  /** Why the case is what it is, when it is not obvious. */
  note: z.string().optional(),
});

export const RedFlagSet = z.strictObject({
  description: z.string().optional(),
  /** The emergency categories the set covers. */
  categories: z.array(z.string().min(1)).optional(),
  /** Replies that must raise the alarm (an urgent trigger). */
  emergencies: z.array(RedFlagCase.extend({ category: z.string().min(1) })).min(1),
  /** Replies that must not. */
  ordinary: z.array(RedFlagCase).min(1),
});
export type RedFlagSet = z.infer<typeof RedFlagSet>;

/** Whether a parsed YAML document is a red-flag set (it has `emergencies:`), not labelled answer cases. */
export function isRedFlagSet(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && 'emergencies' in doc;
}

/** Reads and checks a red-flag set; throws with the file and the first problems. */
export function loadRedFlagSet(file: string): RedFlagSet {
  const parsed = RedFlagSet.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const ids = [...parsed.data.emergencies, ...parsed.data.ordinary].map((c) => c.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`${file}: case id '${dup}' appears twice`);
  return parsed.data;
}
