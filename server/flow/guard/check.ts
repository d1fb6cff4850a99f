import type { RE2JS } from 're2js';
import { lazyRequire } from '../../shared/lazy-require.ts';
import { GUARD_INPUT_CHARS, patternTooCostly } from '../pattern-cost.ts';
import type { CallExpr, CompareExpr, Expr, LiteralExpr, RefExpr, Scalar } from './ast.ts';
import { BUILTINS } from './functions.ts';
import { guardError, guardWarning, type GuardIssue } from './issue.ts';
import { GUARD_LIMITS } from './limits.ts';
import type { AnswerKeyInfo, CheckOptions } from './types.ts';

/** re2js, loaded on the first pattern compiled, not by `import('questline')` (server/shared/lazy-require.ts). */
const re2 = lazyRequire<typeof import('re2js')>('re2js');

/** What the checker found: all issues, what the guard reads, and the compiled patterns. */
export interface CheckResult {
  issues: GuardIssue[];
  reads: string[];
  usesPath: boolean;
  usesValue: boolean;
  usesContext: boolean;
  /** Each `matches()` call's pattern, compiled once here and reused by the compiler. */
  regexes: Map<CallExpr, RE2JS>;
}

// Member names that lead to the prototype chain in JS. Reads are own-property
// only anyway, but rejecting them outright keeps intent obvious and auditable.
const FORBIDDEN_MEMBERS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const ROOT_NAMES = 'answers.KEY, context.KEY, path, attempts and value';

type Kind = 'string' | 'number' | 'boolean' | 'null' | 'list' | 'unknown';

/** The checker's static knowledge of one subexpression, for type warnings. */
interface Info {
  kind: Kind;
  /** Source label for messages, e.g. `answers.size`. */
  label?: string;
  /** Enum options, when the value is an enum answer (or a list of them). */
  options?: readonly string[];
  literal?: { value: Scalar };
}

const UNKNOWN: Info = { kind: 'unknown' };

function infoFromAnswer(info: AnswerKeyInfo | undefined, label: string): Info {
  if (info === undefined) return { kind: 'unknown', label };
  switch (info.type) {
    case 'number':
    case 'integer':
      return { kind: 'number', label };
    case 'boolean':
      return { kind: 'boolean', label };
    case 'enum':
      return info.options === undefined
        ? { kind: info.multiple ? 'list' : 'string', label }
        : { kind: info.multiple ? 'list' : 'string', label, options: info.options };
    case 'text':
    case 'email':
    case 'phone':
    case 'date':
    case 'url':
      return { kind: 'string', label };
    default:
      return { kind: 'unknown', label };
  }
}

function kindOf(v: Scalar): Kind {
  if (v === null) return 'null';
  return typeof v as 'string' | 'number' | 'boolean';
}

function quote(s: string): string {
  const short = s.length > 40 ? `${s.slice(0, 40)}…` : s;
  return `'${short}'`;
}

function describe(i: Info): string {
  if (i.literal !== undefined) {
    const v = i.literal.value;
    if (typeof v === 'string') return `the string ${quote(v)}`;
    if (typeof v === 'number') return `the number ${v}`;
    return String(v);
  }
  const article = i.kind === 'unknown' ? 'a value' : i.kind === 'list' ? 'a list' : `a ${i.kind}`;
  return i.label === undefined ? article : `${i.label} (${article})`;
}

function optionList(options: readonly string[]): string {
  const shown = options.slice(0, 12).join(', ');
  return options.length > 12 ? `${shown}, …` : shown;
}

/** Edit distance, capped: only used to suggest a near answer key. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

function suggestKey(key: string, keys: ReadonlyMap<string, AnswerKeyInfo>): string {
  let best: string | undefined;
  let bestD = 3;
  for (const k of [...keys.keys()].sort()) {
    const d = distance(key, k);
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best === undefined ? '' : ` (did you mean '${best}'?)`;
}

function span(e: { pos: number; end: number }): [number, number] {
  return [e.pos, Math.max(1, e.end - e.pos)];
}

class Checker {
  readonly issues: GuardIssue[] = [];
  readonly reads = new Set<string>();
  readonly regexes = new Map<CallExpr, RE2JS>();
  usesPath = false;
  usesValue = false;
  usesContext = false;

  constructor(private readonly options: CheckOptions) {}

  private error(code: string, message: string, pos: number, length: number): void {
    this.issues.push(guardError(code, message, pos, length));
  }

  private warn(message: string, pos: number, length: number): void {
    this.issues.push(guardWarning('type_mismatch', message, pos, length));
  }

  // Recursion depth is bounded by the parser's maxDepth: chains are flat.
  visit(e: Expr): Info {
    switch (e.kind) {
      case 'literal':
        return { kind: kindOf(e.value), literal: { value: e.value } };
      case 'list':
        for (const item of e.items) this.visit(item);
        return { kind: 'list' };
      case 'ref':
        return this.visitRef(e);
      case 'call':
        return this.visitCall(e);
      case 'not':
        this.visit(e.operand);
        return { kind: 'boolean' };
      case 'logical':
        for (const operand of e.operands) this.visit(operand);
        return { kind: 'boolean' };
      case 'compare':
        this.visitCompare(e, this.visit(e.left), this.visit(e.right));
        return { kind: 'boolean' };
    }
  }

  private visitRef(e: RefExpr): Info {
    let forbidden = false;
    for (const step of e.path) {
      if (FORBIDDEN_MEMBERS.has(step.name)) {
        forbidden = true;
        this.error('prototype_access', `'${step.name}' cannot be read: guards never reach the prototype chain`,
          ...span(step));
      }
    }
    const rootLen = e.rootEnd - e.pos;
    const noMembers = (what: string): void => {
      const first = e.path[0];
      if (first !== undefined) {
        this.error('bad_member', `${what} has no members; '${first.name}' cannot be read from it`, ...span(first));
      }
    };
    switch (e.root) {
      case 'answers': {
        const first = e.path[0];
        if (first === undefined) {
          this.error('bad_member', "'answers' needs a key: answers.KEY or answers['key']", e.pos, rootLen);
          return UNKNOWN;
        }
        const second = e.path[1];
        if (second !== undefined) {
          this.error('bad_member',
            `answers.${first.name} is a single answer; only context supports nested members`, ...span(second));
        }
        if (FORBIDDEN_MEMBERS.has(first.name)) return UNKNOWN;
        const info = this.options.answers.get(first.name);
        if (info === undefined) {
          this.error('unknown_answer_key',
            `'${first.name}' is not an answer key of this flow${suggestKey(first.name, this.options.answers)}`,
            ...span(first));
          return UNKNOWN;
        }
        this.reads.add(first.name);
        return infoFromAnswer(info, first.computed ? `answers[${quote(first.name)}]` : `answers.${first.name}`);
      }
      case 'context':
        this.usesContext = true;
        if (e.path.length === 0) {
          this.error('bad_member', "'context' needs a key: context.KEY", e.pos, rootLen);
        }
        if (forbidden) return UNKNOWN;
        {
          const declared = e.path.length === 1 ? this.options.contextValues?.get(e.path[0]!.name) : undefined;
          const label = e.path.length === 1 ? `context.${e.path[0]!.name}` : 'context';
          // a context key whose values the flow declares compares like an enum answer
          return declared ? { kind: 'string', label, options: declared } : { kind: 'unknown', label };
        }
      case 'value':
        this.usesValue = true;
        if (this.options.allowValue !== true) {
          this.error('value_outside_validate', "'value' is only available inside a question's validate expression",
            e.pos, rootLen);
        }
        noMembers("'value'");
        return infoFromAnswer(this.options.valueType, 'value');
      case 'path':
        this.usesPath = true;
        noMembers("'path'");
        return this.options.paths ? { kind: 'string', label: 'path', options: this.options.paths } : { kind: 'string', label: 'path' };
      case 'attempts':
        noMembers("'attempts'");
        return { kind: 'number', label: 'attempts' };
      default: {
        const hint = BUILTINS.has(e.root) ? ` (did you mean ${e.root}()?)` : `; guards can read ${ROOT_NAMES}`;
        this.error('unknown_name', `unknown name '${e.root}'${hint}`, e.pos, rootLen);
        return UNKNOWN;
      }
    }
  }

  private visitCall(e: CallExpr): Info {
    const nameLen = e.nameEnd - e.pos;
    const spec = BUILTINS.get(e.name);
    if (spec === undefined) {
      this.error('unknown_function',
        `unknown function '${e.name}'; available: ${[...BUILTINS.keys()].map((n) => `${n}()`).join(', ')}`,
        e.pos, nameLen);
      for (const a of e.args) this.visit(a);
      return UNKNOWN;
    }
    if (e.args.length !== spec.arity) {
      const plural = spec.arity === 1 ? 'argument' : 'arguments';
      this.error('bad_arity', `${e.name}() takes ${spec.arity} ${plural}, got ${e.args.length}`, e.pos, nameLen);
      for (const a of e.args) this.visit(a);
      return { kind: spec.result };
    }
    if (e.name === 'matches') {
      this.visit(e.args[0]!);
      this.checkPattern(e, e.args[1]!);
    } else {
      for (const a of e.args) this.visit(a);
    }
    return { kind: spec.result };
  }

  private checkPattern(call: CallExpr, arg: Expr): void {
    if (arg.kind !== 'literal' || typeof arg.value !== 'string') {
      this.visit(arg);
      this.error('bad_regex', "the pattern of matches() must be a string literal, so it is compiled once and checked",
        ...span(arg));
      return;
    }
    const pattern = arg.value;
    if (pattern.length > GUARD_LIMITS.maxRegexLength) {
      this.error('literal_too_large', `regex pattern longer than ${GUARD_LIMITS.maxRegexLength} characters`,
        ...span(arg));
      return;
    }
    let re: RE2JS;
    try {
      re = re2().RE2JS.compile(pattern);
    } catch (err) {
      // re2 rejects backreferences and lookarounds: they cannot run in linear time.
      const detail = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
      this.error('bad_regex', `invalid regex: ${detail} (re2 syntax; no backreferences or lookarounds)`,
        ...span(arg));
      return;
    }
    if (re.programSize() > GUARD_LIMITS.maxRegexProgramSize) {
      this.error('bad_regex', 'regex is too complex (its compiled program is too large)', ...span(arg));
      return;
    }
    const costly = patternTooCostly(re, GUARD_INPUT_CHARS);
    if (costly) {
      this.error('regex_too_costly', `matches() ${costly}`, ...span(arg));
      return;
    }
    this.regexes.set(call, re);
  }

  private visitCompare(e: CompareExpr, l: Info, r: Info): void {
    if (e.op === 'in') {
      this.checkIn(e, l, r);
      return;
    }
    if (e.op === '==' || e.op === '!=') {
      const outcome = e.op === '==' ? 'never true' : 'always true';
      if (this.checkOption(e.right, l, r, outcome) || this.checkOption(e.left, r, l, outcome)) return;
      if (l.kind !== 'unknown' && r.kind !== 'unknown' && l.kind !== 'null' && r.kind !== 'null' &&
        l.kind !== r.kind) {
        // Point at the literal side when there is one: that is what the author typed wrong.
        const at = r.literal !== undefined ? e.right : l.literal !== undefined ? e.left : e;
        this.warn(`comparing ${describe(l)} with ${describe(r)} using '${e.op}' is ${outcome}`, ...span(at));
      }
      return;
    }
    if (l.kind === 'boolean' || r.kind === 'boolean') {
      const b = l.kind === 'boolean' ? l : r;
      this.warn(`'${e.op}' never holds when one side is a boolean (${b.label ?? describe(b)})`, ...span(e));
      return;
    }
    const bad = [l, r].find((i) => i.kind === 'null' || i.kind === 'list');
    if (bad !== undefined) {
      this.warn(`'${e.op}' only compares two numbers or two strings; ${describe(bad)} never matches`, ...span(e));
      return;
    }
    if (l.kind !== 'unknown' && r.kind !== 'unknown' && l.kind !== r.kind) {
      this.warn(`'${e.op}' between ${describe(l)} and ${describe(r)} is never true`, ...span(e));
    }
  }

  /** Warns when `other` is a string literal that the enum `side` can never equal. */
  private checkOption(otherExpr: Expr, side: Info, other: Info, outcome: string): boolean {
    if (side.options === undefined || side.kind !== 'string') return false;
    const v = other.literal?.value;
    if (typeof v !== 'string' || side.options.includes(v)) return false;
    this.warn(`${quote(v)} is not an option of ${side.label ?? 'this enum'} (options: ${optionList(side.options)}); ` +
      `this comparison is ${outcome}`, ...span(otherExpr));
    return true;
  }

  private checkIn(e: CompareExpr, l: Info, r: Info): void {
    if (r.kind === 'number' || r.kind === 'boolean' || r.kind === 'null') {
      this.warn(`'in' needs a list or a string on its right; ${describe(r)} makes it never true`, ...span(e.right));
      return;
    }
    if (r.kind === 'string' && l.kind !== 'unknown' && l.kind !== 'string') {
      this.warn(`'in' on a string is a substring test; ${describe(l)} is never found`, ...span(e));
      return;
    }
    if (e.right.kind === 'list' && l.options !== undefined && l.kind === 'string') {
      for (const item of e.right.items) {
        if (item.kind === 'literal' && typeof item.value === 'string' && !l.options.includes(item.value)) {
          this.warn(`${quote(item.value)} is not an option of ${l.label ?? 'this enum'} ` +
            `(options: ${optionList(l.options)}); it never matches`, ...span(item));
        }
      }
      return;
    }
    if (r.options !== undefined && r.kind === 'list' && e.left.kind === 'literal') {
      const lit: LiteralExpr = e.left;
      if (typeof lit.value === 'string' && !r.options.includes(lit.value)) {
        this.warn(`${quote(lit.value)} is not an option of ${r.label ?? 'this enum'} ` +
          `(options: ${optionList(r.options)}); this is never true`, ...span(lit));
      }
    }
  }
}

/** Checks names, functions, patterns and types of a parsed guard, reporting every issue found. */
export function checkGuard(ast: Expr, options: CheckOptions): CheckResult {
  const checker = new Checker(options);
  checker.visit(ast);
  return {
    issues: checker.issues,
    reads: [...checker.reads].sort(),
    usesPath: checker.usesPath,
    usesValue: checker.usesValue,
    usesContext: checker.usesContext,
    regexes: checker.regexes,
  };
}
