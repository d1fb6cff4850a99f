import type { EvalScope } from './types.ts';

/** An ordering operator. */
export type OrderOp = '<' | '<=' | '>' | '>=';

type Fn = (s: EvalScope) => unknown;
type BoolFn = (s: EvalScope) => boolean;

const hasOwn = Object.hasOwn;

/**
 * `answers.KEY OP c` for a number constant. One closure literal per operator
 * and per constant type: V8 then folds `typeof v === 'number'` and each closure
 * stays monomorphic. The value is tested first and hasOwn confirms it only when
 * the result would be true, so an inherited value never makes a guard pass.
 */
export function answerVsNumber(op: OrderOp, k: string, c: number): BoolFn {
  switch (op) {
    case '<': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'number' && v < c && hasOwn(a, k); };
    case '<=': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'number' && v <= c && hasOwn(a, k); };
    case '>': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'number' && v > c && hasOwn(a, k); };
    case '>=': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'number' && v >= c && hasOwn(a, k); };
  }
}

/** `answers.KEY OP 'c'` for a string constant (ISO dates compare as strings). */
export function answerVsString(op: OrderOp, k: string, c: string): BoolFn {
  switch (op) {
    case '<': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'string' && v < c && hasOwn(a, k); };
    case '<=': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'string' && v <= c && hasOwn(a, k); };
    case '>': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'string' && v > c && hasOwn(a, k); };
    case '>=': return (s) => { const a = s.answers; if (a == null) return false; const v = a[k]; return typeof v === 'string' && v >= c && hasOwn(a, k); };
  }
}

/** `f(s) OP c` for any subexpression and a number or string constant. */
export function valueVsConstant(op: OrderOp, f: Fn, c: number | string): BoolFn {
  const t = typeof c;
  switch (op) {
    case '<': return (s) => { const v = f(s); return typeof v === t && (v as number) < (c as number); };
    case '<=': return (s) => { const v = f(s); return typeof v === t && (v as number) <= (c as number); };
    case '>': return (s) => { const v = f(s); return typeof v === t && (v as number) > (c as number); };
    case '>=': return (s) => { const v = f(s); return typeof v === t && (v as number) >= (c as number); };
  }
}
