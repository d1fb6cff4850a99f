/** What the checker knows about one answer key. `type`: text|number|integer|boolean|enum|email|phone|date|url. */
export interface AnswerKeyInfo {
  type: string;
  options?: readonly string[];
  multiple?: boolean;
}

/** What a guard may refer to. */
export interface CheckOptions {
  /** The flow's answer keys; reading any other key is `unknown_answer_key`. */
  answers: ReadonlyMap<string, AnswerKeyInfo>;
  /** True only for `validate` expressions; elsewhere `value` is `value_outside_validate`. */
  allowValue?: boolean;
  /** The type of `value` inside `validate`. */
  valueType?: AnswerKeyInfo;
  /** The flow's path names, when it declares paths: comparing `path` to another string is warned about. */
  paths?: readonly string[];
  /** Context keys whose values the flow declares (`interface.context` properties with an `enum`). */
  contextValues?: ReadonlyMap<string, readonly string[]>;
}

/** Everything a compiled guard can read at run time; the caller injects `today` (no clock reads). */
export interface EvalScope {
  answers: Readonly<Record<string, unknown>>;
  context?: Readonly<Record<string, unknown>>;
  path?: string | null;
  attempts?: number;
  value?: unknown;
  today?: string;
}

/** A checked guard compiled to closures. */
export interface CompiledGuard {
  readonly source: string;
  /** Answer keys read, sorted and unique. */
  readonly reads: readonly string[];
  readonly usesPath: boolean;
  readonly usesValue: boolean;
  readonly usesContext: boolean;
  /** The expression's value (JSON; missing reads are null). */
  evaluate(scope: EvalScope): unknown;
  /** The truthiness of the expression's value. */
  test(scope: EvalScope): boolean;
}
