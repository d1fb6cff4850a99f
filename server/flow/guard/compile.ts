import type { RE2JS } from 're2js';
import type { CallExpr, CompareExpr, Expr, RefExpr } from './ast.ts';
import { hasValue, lengthOf, lowerOf, todayOf, yearsSince } from './functions.ts';
import { answerVsNumber, answerVsString, valueVsConstant, type OrderOp } from './order.ts';
import type { EvalScope } from './types.ts';
import { contains, freezeList, isTruthy, jsonEquals, normalize, orderedCompare, readOwnData } from './values.ts';

/** A compiled subexpression. */
type Fn = (s: EvalScope) => unknown;
type BoolFn = (s: EvalScope) => boolean;

/**
 * What the compiler knows about a compiled child, so the parent can pick a
 * specialised closure: `answers.size == 'large'` becomes one closure that
 * reads the own property and compares it with the constant, instead of three
 * closures and a generic equality.
 */
interface Node {
  fn: Fn;
  /** Set when the result is always a boolean (then `fn === bool`). */
  bool?: BoolFn;
  /** Set for compile-time constants (literals and literal lists). */
  constant?: { value: unknown };
  /** Set for a plain `answers.KEY` read. */
  answerKey?: string;
}

/** The two entry points of a compiled guard. */
export interface CompiledClosures {
  evaluate: Fn;
  test: BoolFn;
}

// Specialised answer reads test the value first and confirm with hasOwn only
// when the result would be true: a value found on the prototype chain (even a
// polluted Object.prototype) can never make a guard pass, and the common false
// case skips the second lookup. Answers are plain JSON data, so the plain
// lookup has no accessors to run; context, which may hold anything, is read
// through property descriptors instead.
const hasOwn = Object.hasOwn;

const FLIPPED: Readonly<Record<OrderOp, OrderOp>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function boolNode(bool: BoolFn): Node {
  return { fn: bool, bool };
}

function constNode(value: unknown): Node {
  return { fn: () => value, constant: { value } };
}

const FALSE_NODE = boolNode(() => false);

function isPrimitive(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v !== 'object';
}

/** Answers are JSON from the session: an own-property check is enough, no descriptor needed. */
function readAnswer(k: string): Fn {
  return (s) => {
    const a = s.answers;
    if (a != null && hasOwn(a, k)) {
      const v = a[k];
      return v === undefined ? null : v;
    }
    return null;
  };
}

/** Context is tenant metadata of any shape: walk own data properties only. */
function readContext(path: readonly string[]): Fn {
  if (path.length === 1) {
    const k = path[0]!;
    return (s) => readOwnData(s.context, k);
  }
  return (s) => {
    let cur: unknown = s.context;
    for (const k of path) {
      cur = readOwnData(cur, k);
      if (cur === null) return null;
    }
    return cur;
  };
}

function compileRef(e: RefExpr): Node {
  const names = e.path.map((p) => p.name);
  switch (e.root) {
    case 'answers': {
      const k = names[0]!;
      return { fn: readAnswer(k), answerKey: k };
    }
    case 'context':
      return { fn: readContext(names) };
    case 'value':
      return { fn: (s) => normalize(s.value) };
    case 'path':
      return { fn: (s) => (typeof s.path === 'string' ? s.path : null) };
    case 'attempts':
      return { fn: (s) => (typeof s.attempts === 'number' ? s.attempts : 0) };
    default:
      // The checker rejects every other root; reaching here is a bug, not user error.
      throw new Error(`guard compiler: unchecked root '${e.root}'`);
  }
}

/** Turns any node into a closure returning its truthiness. */
function asBool(n: Node): BoolFn {
  if (n.bool !== undefined) return n.bool;
  if (n.constant !== undefined) {
    const t = isTruthy(n.constant.value);
    return () => t;
  }
  const k = n.answerKey;
  if (k !== undefined) {
    return (s) => {
      const a = s.answers;
      return a != null && isTruthy(a[k]) && hasOwn(a, k);
    };
  }
  const f = n.fn;
  return (s) => isTruthy(f(s));
}

function compileLogical(op: 'and' | 'or', operands: BoolFn[]): Node {
  const [a, b, c] = operands;
  if (operands.length === 2) {
    return boolNode(op === 'and' ? (s) => a!(s) && b!(s) : (s) => a!(s) || b!(s));
  }
  if (operands.length === 3) {
    return boolNode(op === 'and' ? (s) => a!(s) && b!(s) && c!(s) : (s) => a!(s) || b!(s) || c!(s));
  }
  const n = operands.length;
  return boolNode(op === 'and'
    ? (s) => {
      for (let i = 0; i < n; i++) if (!operands[i]!(s)) return false;
      return true;
    }
    : (s) => {
      for (let i = 0; i < n; i++) if (operands[i]!(s)) return true;
      return false;
    });
}

function equalsConst(n: Node, c: string | number | boolean | null, negate: boolean): Node {
  const k = n.answerKey;
  if (k !== undefined && c !== null) {
    return boolNode(negate
      ? (s) => {
        const a = s.answers;
        return !(a != null && a[k] === c && hasOwn(a, k));
      }
      : (s) => {
        const a = s.answers;
        return a != null && a[k] === c && hasOwn(a, k);
      });
  }
  // Reads return null (never undefined) for missing values, so `=== null` is exact.
  const f = n.fn;
  return boolNode(negate ? (s) => f(s) !== c : (s) => f(s) === c);
}

function compileEquals(l: Node, r: Node, negate: boolean): Node {
  if (r.constant !== undefined && isPrimitive(r.constant.value)) return equalsConst(l, r.constant.value, negate);
  if (l.constant !== undefined && isPrimitive(l.constant.value)) return equalsConst(r, l.constant.value, negate);
  const lf = l.fn;
  const rf = r.fn;
  return boolNode(negate ? (s) => !jsonEquals(lf(s), rf(s)) : (s) => jsonEquals(lf(s), rf(s)));
}

/** `n OP c` for a constant number or string, specialised for answer reads. */
function orderConst(op: OrderOp, n: Node, c: number | string): Node {
  const k = n.answerKey;
  if (k === undefined) return boolNode(valueVsConstant(op, n.fn, c));
  return boolNode(typeof c === 'number' ? answerVsNumber(op, k, c) : answerVsString(op, k, c));
}

function compileOrder(op: OrderOp, l: Node, r: Node): Node {
  for (const [side, other, o] of [[r, l, op], [l, r, FLIPPED[op]]] as const) {
    if (side.constant !== undefined) {
      const c = side.constant.value;
      // A null, boolean or list constant can never be ordered (the checker warns).
      return typeof c === 'number' || typeof c === 'string' ? orderConst(o, other, c) : FALSE_NODE;
    }
  }
  const lf = l.fn;
  const rf = r.fn;
  return boolNode((s) => orderedCompare(op, lf(s), rf(s)));
}

function compileIn(l: Node, r: Node): Node {
  const lf = l.fn;
  if (r.constant !== undefined) {
    const c = r.constant.value;
    if (typeof c === 'string') {
      return boolNode((s) => {
        const v = lf(s);
        return typeof v === 'string' && c.includes(v);
      });
    }
    if (!Array.isArray(c)) return FALSE_NODE;
    if (c.every(isPrimitive)) {
      // Set membership is `===` for primitives (SameValueZero; literals are never NaN).
      const set = new Set<unknown>(c);
      const k = l.answerKey;
      if (k !== undefined && !set.has(null) && set.size <= 4) {
        // A handful of `===` tests beats hashing; unused slots hold a fresh
        // object that no JSON value can be identical to.
        const none = {};
        const [c0 = none, c1 = none, c2 = none, c3 = none] = [...set];
        return boolNode((s) => {
          const a = s.answers;
          if (a == null) return false;
          const v = a[k];
          return (v === c0 || v === c1 || v === c2 || v === c3) && hasOwn(a, k);
        });
      }
      if (k !== undefined && !set.has(null)) {
        return boolNode((s) => {
          const a = s.answers;
          return a != null && set.has(a[k]) && hasOwn(a, k);
        });
      }
      return boolNode((s) => set.has(lf(s)));
    }
    return boolNode((s) => contains(lf(s), c));
  }
  const rf = r.fn;
  return boolNode((s) => contains(lf(s), rf(s)));
}

function compileCompare(e: CompareExpr, regexes: ReadonlyMap<CallExpr, RE2JS>): Node {
  const l = compileNode(e.left, regexes);
  const r = compileNode(e.right, regexes);
  switch (e.op) {
    case '==': return compileEquals(l, r, false);
    case '!=': return compileEquals(l, r, true);
    case 'in': return compileIn(l, r);
    default: return compileOrder(e.op, l, r);
  }
}

function compileCall(e: CallExpr, regexes: ReadonlyMap<CallExpr, RE2JS>): Node {
  if (e.name === 'today') return { fn: (s) => todayOf(s.today) };
  const arg = compileNode(e.args[0]!, regexes);
  const f = arg.fn;
  switch (e.name) {
    case 'has': {
      const k = arg.answerKey;
      if (k !== undefined) {
        return boolNode((s) => {
          const a = s.answers;
          if (a == null) return false;
          const v = a[k];
          return v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0) && hasOwn(a, k);
        });
      }
      return boolNode((s) => hasValue(f(s)));
    }
    case 'len':
      return { fn: (s) => lengthOf(f(s)) };
    case 'lower':
      return { fn: (s) => lowerOf(f(s)) };
    case 'years_since':
      return { fn: (s) => yearsSince(f(s), s.today) };
    case 'matches': {
      const re = regexes.get(e);
      if (re === undefined) throw new Error('guard compiler: matches() pattern was not checked');
      return boolNode((s) => {
        const v = f(s);
        return typeof v === 'string' && re.test(v);
      });
    }
    default:
      throw new Error(`guard compiler: unchecked function '${e.name}'`);
  }
}

// Recursion depth is bounded by the parser's maxDepth: chains are flat arrays.
function compileNode(e: Expr, regexes: ReadonlyMap<CallExpr, RE2JS>): Node {
  switch (e.kind) {
    case 'literal':
      return constNode(e.value);
    case 'list': {
      const items = e.items.map((item) => compileNode(item, regexes));
      if (items.every((i) => i.constant !== undefined)) {
        return constNode(freezeList(items.map((i) => i.constant!.value)));
      }
      const fns = items.map((i) => i.fn);
      return { fn: (s) => fns.map((f) => f(s)) };
    }
    case 'ref':
      return compileRef(e);
    case 'call':
      return compileCall(e, regexes);
    case 'not': {
      const b = asBool(compileNode(e.operand, regexes));
      return boolNode((s) => !b(s));
    }
    case 'logical':
      return compileLogical(e.op, e.operands.map((o) => asBool(compileNode(o, regexes))));
    case 'compare':
      return compileCompare(e, regexes);
  }
}

/** Compiles a checked AST to closures; call only after `checkGuard` reported no errors. */
export function compileClosures(ast: Expr, regexes: ReadonlyMap<CallExpr, RE2JS>): CompiledClosures {
  const root = compileNode(ast, regexes);
  return { evaluate: root.fn, test: asBool(root) };
}
