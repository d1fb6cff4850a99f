import { z } from 'zod';
import { lazy } from '../shared/lazy.ts';
import type { Extractor, ExtractionRequest, Proposal } from '../extract/extractor.ts';
import { QuestlineUsageError } from '../shared/usage-error.ts';

// An extractor of the host's own (often plain JavaScript) is checked where it
// hands Questline a proposal: `updates` and `unknown` may be left out (they
// mean "nothing"), anything else of the wrong shape is a developer error
// naming the extractor and what was expected — not a crash deep in a turn.

const ProposalShape = lazy(() => z.looseObject({
  extractor: z.string().optional(),
  updates: z.array(z.looseObject({ key: z.string(), value: z.unknown() }), { message: 'expected a list of { key, value }' }).optional(),
  unknown: z.array(z.string(), { message: 'expected a list of answer keys' }).optional(),
}));

/** The proposal an extractor returned, with `updates` and `unknown` defaulted, or a QuestlineUsageError saying what is wrong. */
export function checkedProposal(extractor: string, value: unknown): Proposal {
  const r = ProposalShape().safeParse(value);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `${['proposal', ...i.path.map(String)].join('.')}: ${i.message.replace(/^Invalid input: /, '')}`);
    throw new QuestlineUsageError('invalid_proposal',
      `extractor '${extractor}' returned something that is not a proposal; expected { updates: [{ key, value }], unknown: [keys] } (both may be left out)`, lines);
  }
  const p = value as Partial<Proposal>;
  return { ...p, extractor: p.extractor ?? extractor, updates: p.updates ?? [], unknown: p.unknown ?? [] } as Proposal;
}

/** The extractor with each proposal checked (checkedProposal); the built-in extractors need no wrapping. */
export function checkedExtractor(x: Extractor): Extractor {
  const name = typeof x.name === 'string' ? x.name : 'custom';
  return {
    name,
    extract(request: ExtractionRequest) {
      const p = x.extract(request);
      return p instanceof Promise ? p.then((v) => checkedProposal(name, v)) : checkedProposal(name, p);
    },
  };
}
