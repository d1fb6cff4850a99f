import { describe, expect, it } from 'vitest';
import { QuestlineUsageError } from '../../server/api/index.ts';
import { createLogger, createQuestline } from '../../server/api/server.ts';

// createQuestline checks its options at the call: a misspelled option or an
// implementation that is not a function is a developer error saying what was
// expected — not a flow that fails at the first visitor.

const flowsDir = new URL('../../examples/flows', import.meta.url).pathname;
const logger = createLogger('silent');

describe('createQuestline options', () => {
  it('refuses a misspelled option, naming the one meant', async () => {
    const err = await createQuestline({ flowsDir, logger, validator: {} } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuestlineUsageError);
    expect((err as Error).message).toMatch(/^createQuestline\(options\): options\.validator is not an option \(did you mean validators\?\)/);
  });

  it('refuses an action that is not a function, and a mountPath that is not a path', async () => {
    const err = await createQuestline({ flowsDir, logger, actions: { 'pricing.quote': { total: 1 } } } as never).catch((e: unknown) => e);
    expect((err as Error).message).toBe("createQuestline(options): options.actions[\"pricing.quote\"]: expected a function async (input, { signal, attempt }) => object, got an object");
    await expect(createQuestline({ flowsDir, logger, mountPath: 'chat' })).rejects.toThrow(/mountPath must be a path such as '\/chat'/);
  });

  it('refuses a flowsDir that does not exist or holds no flow layers, saying where it looked', async () => {
    const missing = await createQuestline({ flowsDir: 'no-such-flows-dir', logger }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(QuestlineUsageError);
    expect((missing as Error).message).toMatch(/^createQuestline: the flows folder 'no-such-flows-dir' does not exist \(\/.*no-such-flows-dir, resolved from \//);
    const wrong = new URL('../../examples', import.meta.url).pathname;
    await expect(createQuestline({ flowsDir: wrong, logger })).rejects.toThrow(/holds none of global\/, packs\/, tenants\/: point it at the folder that holds them/);
  });
});
