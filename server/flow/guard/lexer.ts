import { GUARD_LIMITS } from './limits.ts';
import { GuardSyntaxFailure, guardError } from './issue.ts';

/** Token categories; words cover names, keywords and function names alike. */
export type TokenKind = 'number' | 'string' | 'word' | 'punct' | 'eof';

/** One token with its 0-based source span; `value` holds decoded literals. */
export interface Token {
  kind: TokenKind;
  text: string;
  value: string | number | null;
  pos: number;
  end: number;
}

// Longest first, so `<=` wins over `<`.
const PUNCT = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '[', ']', ',', '.', '-'] as const;

// A few common slips get a targeted hint instead of "unexpected character".
const HINTS: Readonly<Record<string, string>> = {
  '=': "use '==' to compare",
  '&': "use '&&' or 'and'",
  '|': "use '||' or 'or'",
  '+': 'guards have no arithmetic',
  '*': 'guards have no arithmetic',
  '/': 'guards have no arithmetic',
  '%': 'guards have no arithmetic',
  '?': 'guards have no conditional operator',
  '`': "strings use ' or \"",
};

const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r',
};

/** Describes a character for error messages without echoing control bytes. */
export function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${ch}'`;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isWordPart(c: number): boolean {
  return isWordStart(c) || isDigit(c);
}

function fail(message: string, offset: number, length?: number, code = 'syntax'): never {
  throw new GuardSyntaxFailure(guardError(code, message, offset, length));
}

/**
 * A pull lexer: the parser asks for one token at a time, so the first error
 * reported is the leftmost one and nothing past it is scanned.
 */
export class Lexer {
  private offset = 0;
  constructor(private readonly source: string) {}

  /** Scans and returns the next token (an `eof` token at the end). */
  next(): Token {
    const src = this.source;
    let i = this.offset;
    while (i < src.length) {
      const c = src.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
    if (i >= src.length) {
      this.offset = i;
      return { kind: 'eof', text: '', value: null, pos: i, end: i };
    }
    const c = src.charCodeAt(i);
    if (c === 39 || c === 34) return this.string(i);
    if (isDigit(c)) return this.number(i);
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < src.length && isWordPart(src.charCodeAt(j))) j++;
      this.offset = j;
      const text = src.slice(i, j);
      return { kind: 'word', text, value: text, pos: i, end: j };
    }
    for (const p of PUNCT) {
      if (src.startsWith(p, i)) {
        this.offset = i + p.length;
        return { kind: 'punct', text: p, value: null, pos: i, end: i + p.length };
      }
    }
    const ch = String.fromCodePoint(src.codePointAt(i) ?? c);
    const hint = HINTS[ch] ?? (c > 127 ? "names are ASCII letters, digits and '_'; write answers['…'] for other keys" : undefined);
    fail(`unexpected character ${describeChar(ch)} at column ${i + 1}${hint ? `: ${hint}` : ''}`, i, ch.length);
  }

  private number(start: number): Token {
    const src = this.source;
    let j = start;
    while (j < src.length && isDigit(src.charCodeAt(j))) j++;
    if (src.charCodeAt(j) === 46 && isDigit(src.charCodeAt(j + 1))) {
      j++;
      while (j < src.length && isDigit(src.charCodeAt(j))) j++;
    }
    if (j < src.length && isWordPart(src.charCodeAt(j))) {
      fail(`malformed number at column ${start + 1}`, start, j + 1 - start);
    }
    if (j - start > GUARD_LIMITS.maxNumberLength) {
      fail(`number literal longer than ${GUARD_LIMITS.maxNumberLength} characters`, start, j - start, 'literal_too_large');
    }
    this.offset = j;
    const text = src.slice(start, j);
    return { kind: 'number', text, value: Number(text), pos: start, end: j };
  }

  private string(start: number): Token {
    const src = this.source;
    const quote = src[start];
    const max = GUARD_LIMITS.maxStringLength;
    let out = '';
    let j = start + 1;
    for (;;) {
      if (j >= src.length) fail(`unterminated string starting at column ${start + 1}`, start, j - start);
      const ch = src[j] as string;
      if (ch === quote) break;
      if (ch === '\\') {
        const e = src[j + 1];
        if (e === undefined) fail(`unterminated string starting at column ${start + 1}`, start, j + 1 - start);
        if (e === 'u') {
          const hex = src.slice(j + 2, j + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(`'\\u' needs four hex digits at column ${j + 1}`, j, 2);
          out += String.fromCharCode(parseInt(hex, 16));
          j += 6;
        } else {
          const decoded = ESCAPES[e];
          if (decoded === undefined) fail(`unknown escape '\\${e}' at column ${j + 1}`, j, 2);
          out += decoded;
          j += 2;
        }
      } else {
        out += ch;
        j++;
      }
      // Checked as we go so a huge literal stops being copied at the limit.
      if (out.length > max) {
        fail(`string literal longer than ${max} characters`, start, j - start, 'literal_too_large');
      }
    }
    this.offset = j + 1;
    return { kind: 'string', text: src.slice(start, j + 1), value: out, pos: start, end: j + 1 };
  }
}
