import { describe, expect, it } from 'vitest';
import { hasVisibleText } from '../../server/transport/visible-text.ts';

describe('visible text', () => {
  it('refuses text made only of zero-width, direction-control and blank characters', () => {
    for (const t of ['\u200B\u200C\u200D', '\u202E\u202D\u2066\u2069', '\uFEFF \u2060', ' \t\n', '\u200E\u200F', '\u3164']) expect(hasVisibleText(t), JSON.stringify(t)).toBe(false);
  });

  it('refuses the default-ignorable characters that are not format characters (U+034F, U+FE0F, U+17B4)', () => {
    for (const t of ['\u034F', '\uFE0F', '\u17B4', '\u17B5', '\u034F\uFE0F \u17B4', '\uFE0F\uFE0F\uFE0F']) expect(hasVisibleText(t), JSON.stringify(t)).toBe(false);
    // an emoji with its variation selector still shows
    expect(hasVisibleText('\u2764\uFE0F')).toBe(true);
  });

  it('accepts any visible character, with or without invisible ones around it', () => {
    for (const t of ['a', '\u200Bhi\u200B', '42', '🙂', '\u202Eyes', 'ok\u2069', 'نعم']) expect(hasVisibleText(t), JSON.stringify(t)).toBe(true);
  });
});

describe('payload errors', () => {
  it('answers a locale longer than a language tag with invalid_payload (400), not too_large (413)', async () => {
    const { parsePayload, StartBody } = await import('../../server/protocol/index.ts');
    const r = parsePayload(StartBody, { flow: 'flow.sales', locale: 'x'.repeat(5000) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'invalid_payload', message: expect.stringContaining("'locale' is too long") });
    // a message that is too long is still too_large
    const { MessageBody } = await import('../../server/protocol/index.ts');
    const m = parsePayload(MessageBody, { text: 'x'.repeat(5000) });
    expect(!m.ok && m.error.code).toBe('too_large');
  });
});
