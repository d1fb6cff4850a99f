import { describe, expect, it } from 'vitest';
import { hasVisibleText } from '../../server/transport/visible-text.ts';

describe('visible text', () => {
  it('refuses text made only of zero-width, direction-control and blank characters', () => {
    for (const t of ['\u200B\u200C\u200D', '\u202E\u202D\u2066\u2069', '\uFEFF \u2060', ' \t\n', '\u200E\u200F', '\u3164']) expect(hasVisibleText(t), JSON.stringify(t)).toBe(false);
  });

  it('accepts any visible character, with or without invisible ones around it', () => {
    for (const t of ['a', '\u200Bhi\u200B', '42', '🙂', '\u202Eyes', 'ok\u2069', 'نعم']) expect(hasVisibleText(t), JSON.stringify(t)).toBe(true);
  });
});
