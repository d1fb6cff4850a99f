import { readFileSync } from 'node:fs';
import type { LineCounter, Node as YamlNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { Diagnostic } from './diagnostic.ts';
import { lazyRequire } from '../shared/lazy-require.ts';

// The `yaml` package (~0.15 s to load) is loaded when a YAML flow is read or
// a position is first asked for, not by `import('questline')`: a JSON flow
// without repeated keys never needs it.
const yaml = lazyRequire<typeof import('yaml')>('yaml');
const isMap = (n: unknown): n is YAMLMap => yaml().isMap(n);
const isPair = (n: unknown): n is Pair => yaml().isPair(n);
const isScalar = (n: unknown): n is Scalar => yaml().isScalar(n);
const isSeq = (n: unknown): n is YAMLSeq => yaml().isSeq(n);
const parseDocument: typeof import('yaml').parseDocument = (...args: Parameters<typeof import('yaml').parseDocument>) => yaml().parseDocument(...args);

/** A 1-based line and column in a source file. */
export interface Position { line: number; col: number }

/** A path into the parsed document, as zod reports it (`['nodes', 3, 'guard']`). */
export type DocPath = ReadonlyArray<PropertyKey>;

/**
 * Maps document paths back to source positions. Built on the `yaml` package's
 * CST ranges, which it keeps for JSON too (JSON is YAML 1.2 flow syntax).
 */
export class SourceMap {
  private parsed?: { root: YamlNode | null; lines: LineCounter };

  constructor(root: YamlNode | null, lines: LineCounter);
  /** A map built only when a position is first asked for (most loads never need one). */
  constructor(build: () => { root: YamlNode | null; lines: LineCounter });
  constructor(rootOrBuild: YamlNode | null | (() => { root: YamlNode | null; lines: LineCounter }), lines?: LineCounter) {
    if (typeof rootOrBuild === 'function') this.build = rootOrBuild;
    else this.parsed = { root: rootOrBuild, lines: lines! };
  }

  private readonly build?: () => { root: YamlNode | null; lines: LineCounter };

  private get root(): YamlNode | null {
    return (this.parsed ??= this.build!()).root;
  }

  private get lines(): LineCounter {
    return (this.parsed ??= this.build!()).lines;
  }

  /** Position of the value at `path`, or of its nearest existing ancestor. With `key`, of the last key itself. */
  at(path: DocPath, opts: { key?: boolean } = {}): Position | undefined {
    let node: YamlNode | null = this.root;
    let keyNode: YamlNode | null = null;
    for (const step of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
        if (!pair || !isPair(pair)) break;
        keyNode = pair.key as YamlNode;
        node = (pair.value as YamlNode | null) ?? keyNode;
      } else if (isSeq(node) && typeof step === 'number') {
        const item = node.items[step] as YamlNode | undefined;
        if (!item) break;
        keyNode = null;
        node = item;
      } else break;
    }
    const target = opts.key && keyNode ? keyNode : node;
    return target?.range ? this.pos(target.range[0]) : undefined;
  }

  /**
   * Position of column `col` (1-based) inside the string value at `path`; used
   * to point guard errors at the exact character. Quoted scalars start one
   * character after their opening quote.
   */
  inString(path: DocPath, col: number): Position | undefined {
    const base = this.at(path);
    if (!base) return undefined;
    const node = this.nodeAt(path);
    const quoted = isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE');
    return { line: base.line, col: base.col + (quoted ? 1 : 0) + Math.max(0, col - 1) };
  }

  private nodeAt(path: DocPath): YamlNode | null {
    let node: YamlNode | null = this.root;
    for (const step of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
        node = (pair?.value as YamlNode | null) ?? null;
      } else if (isSeq(node) && typeof step === 'number') node = (node.items[step] as YamlNode | undefined) ?? null;
      else return null;
    }
    return node;
  }

  private pos(offset: number): Position {
    const p = this.lines.linePos(offset);
    return { line: p.line, col: p.col };
  }
}

/** A parsed flow file: its data, where it came from, and how to find positions in it. */
export interface SourceDoc {
  file: string;
  data: unknown;
  map: SourceMap;
}

export type LoadResult = { ok: true; doc: SourceDoc } | { ok: false; diagnostics: Diagnostic[] };

/** Max size of a flow file; a larger one is refused before parsing. */
export const MAX_FLOW_BYTES = 2 * 1024 * 1024;

/** A source map with no positions, for documents that exist only in memory (yaml loads only if it is asked). */
export function emptySourceMap(): SourceMap {
  return new SourceMap(() => ({ root: null, lines: new (yaml().LineCounter)() }));
}

/** Parses JSON or YAML text, keeping source positions; syntax errors become diagnostics. */
export function parseFlowText(text: string, file: string): LoadResult {
  if (text.length > MAX_FLOW_BYTES) {
    return { ok: false, diagnostics: [{ code: 'file_too_large', severity: 'error', file, line: 1, col: 1,
      message: `flow file is ${text.length} bytes; the limit is ${MAX_FLOW_BYTES}` }] };
  }
  if (/\.json$/i.test(file)) {
    // the common case, fast: valid JSON without repeated keys needs no YAML tree until a position is wanted
    const data = plainJson(text);
    if (data.ok) {
      return { ok: true, doc: { file, data: data.value, map: new SourceMap(() => {
        const lines = new (yaml().LineCounter)();
        const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
        return { root: doc.contents as YamlNode | null, lines };
      }) } };
    }
  }
  const lines = new (yaml().LineCounter)();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      diagnostics: doc.errors.map((e) => {
        const p = lines.linePos(e.pos[0]);
        return { code: 'parse_error', severity: 'error' as const, file, line: p.line, col: p.col,
          message: e.message.split('\n')[0] ?? e.message };
      }),
    };
  }
  if (/\.json$/i.test(file)) {
    const strict = strictJsonProblem(text, doc.contents as YamlNode | null, lines);
    if (strict) return { ok: false, diagnostics: [{ code: 'parse_error', severity: 'error', file, ...strict }] };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 }); // refuses "billion laughs" alias bombs
  } catch (err) {
    return { ok: false, diagnostics: [{ code: 'parse_error', severity: 'error', file, line: 1, col: 1, message: (err as Error).message }] };
  }
  return { ok: true, doc: { file, data, map: new SourceMap(doc.contents as YamlNode | null, lines) } };
}

/**
 * JSON text parsed with JSON.parse, when it is valid and no object repeats a
 * key (JSON.parse would keep the last one silently; the YAML path reports it).
 */
function plainJson(text: string): { ok: true; value: unknown } | { ok: false } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  return needsTheYamlPath(text) ? { ok: false } : { ok: true, value };
}

/** Nesting deeper than this takes the YAML path, which reports it (a flow is a few levels deep). */
const PLAIN_DEPTH = 64;

/** Whether valid JSON text repeats a key in an object, or nests deeper than PLAIN_DEPTH; one linear scan. */
function needsTheYamlPath(text: string): boolean {
  const stack: Array<Set<string> | null> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) { // { [
      stack.push(c === 0x7b ? new Set() : null);
      if (stack.length > PLAIN_DEPTH) return true;
    }
    else if (c === 0x7d || c === 0x5d) stack.pop(); // } ]
    else if (c === 0x22) { // "
      let j = i + 1;
      let escaped = false;
      while (text.charCodeAt(j) !== 0x22) {
        if (text.charCodeAt(j) === 0x5c) { escaped = true; j++; }
        j++;
      }
      const top = stack[stack.length - 1];
      let k = j + 1;
      while (k < text.length && /\s/.test(text[k]!)) k++;
      if (top && text.charCodeAt(k) === 0x3a) { // a key: the string is followed by ':'
        const raw = text.slice(i + 1, j);
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.has(key)) return true;
        top.add(key);
      }
      i = j;
    }
  }
  return false;
}

/**
 * YAML 1.2 accepts more than JSON (`{"id": }` reads as null, trailing commas),
 * so a `.json` file is also held to JSON.parse. Where V8's message has no
 * position, the YAML tree finds the usual culprit: a key without a value.
 */
function strictJsonProblem(text: string, root: YamlNode | null, lines: LineCounter): { line: number; col: number; message: string } | null {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    const message = `not valid JSON: ${(err as Error).message}`;
    const at = /at position (\d+)/.exec(message);
    if (at) return { ...lines.linePos(Number(at[1])), message };
    const stack: Array<YamlNode | null> = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (isMap(node)) {
        for (const pair of node.items) {
          const empty = pair.value === null || (isScalar(pair.value) && pair.value.source === '' && pair.value.value === null);
          if (empty && isScalar(pair.key) && pair.key.range) {
            return { ...lines.linePos(pair.key.range[0]), message: `not valid JSON: key ${JSON.stringify(pair.key.value)} has no value` };
          }
          stack.push(pair.value as YamlNode | null);
        }
      } else if (isSeq(node)) stack.push(...(node.items as YamlNode[]));
    }
    return { line: 1, col: 1, message };
  }
}

/** Reads and parses a flow file from disk. */
export function loadFlowFile(file: string): LoadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String((err as Error).message);
    return { ok: false, diagnostics: [{ code: 'read_error', severity: 'error', file, line: 0, col: 0, message: reason }] };
  }
  return parseFlowText(text, file);
}
