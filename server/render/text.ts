// Text helpers shared by the layout (which must size boxes before anything is
// drawn) and the SVG renderer (which draws into them). The server has no font
// engine, so widths come from a table of DejaVu Sans advances — the font the
// page asks for first; Verdana, its stand-in elsewhere, is about as wide —
// plus a safety margin, so labels fit even when the browser substitutes.

/** DejaVu Sans advances for ASCII 32..126, in 1/100 em. */
const SANS = [
  32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 53,
  100, 68, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66, 56, 86, 75, 79, 60, 79, 69, 63, 61, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50,
  50, 61, 63, 55, 63, 62, 35, 63, 63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59, 82, 59, 59, 52, 64, 34, 64, 84,
];
/** DejaVu Sans Bold advances for ASCII 32..126, in 1/100 em. */
const BOLD = [
  35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84, 84, 84, 58,
  100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 72, 68, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50,
  50, 67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84,
];

/** How a run of text is set. */
export type TextStyle = 'sans' | 'bold' | 'mono';

/** Font stacks the page uses for each style (the widths above assume the first entry). */
export const FONT_STACK: Record<TextStyle, string> = {
  sans: "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', sans-serif",
  bold: "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', sans-serif",
  mono: "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace",
};

const SAFETY = 1.06;

/** East Asian wide characters and emoji take a full em. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f000}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/** Estimated rendered width of `s` in pixels. */
export function textWidth(s: string, size: number, style: TextStyle): number {
  let em = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (style === 'mono') em += WIDE.test(ch) ? 1.2 : 0.6;
    else if (c >= 32 && c < 127) em += (style === 'bold' ? BOLD : SANS)[c - 32]! / 100;
    else em += WIDE.test(ch) ? 1.05 : 0.75;
  }
  return em * size * SAFETY;
}

/** One line on one line: runs of whitespace (newlines included) become one space. */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** `s` on one line, cut to at most `max` characters (code points) with an ellipsis. */
export function truncate(s: string, max: number): string {
  const chars = Array.from(oneLine(s));
  return chars.length <= max ? chars.join('') : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML/SVG content and quoted attributes. Flow text is
 * untrusted; control characters other than tab and newline are not allowed in
 * XML at all, so they are dropped.
 */
export function escapeXml(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Rounds a coordinate to 1/100 px (and turns -0 into 0) so the JSON is short and stable. */
export function round(n: number): number {
  const r = Math.round(n * 100) / 100;
  return r === 0 ? 0 : r;
}

/**
 * `s` word-wrapped into at most `lines` lines of at most `max` characters;
 * over-long words are split, and the last line is truncated with an ellipsis.
 */
export function wrap(s: string, max: number, lines: number): string[] {
  const words = oneLine(s).split(' ').flatMap((w) => {
    const chars = Array.from(w);
    const parts: string[] = [];
    for (let i = 0; i < chars.length; i += max) parts.push(chars.slice(i, i + max).join(''));
    return parts;
  });
  const out: string[] = [];
  let i = 0;
  while (i < words.length && out.length < lines) {
    let line = words[i++]!;
    while (i < words.length && Array.from(`${line} ${words[i]}`).length <= max) line += ` ${words[i++]}`;
    out.push(line);
  }
  if (i < words.length) out[out.length - 1] = truncate(`${out[out.length - 1]} ${words.slice(i).join(' ')}`, max);
  return out.length ? out : [''];
}
