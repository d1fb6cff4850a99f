import type { z } from 'zod';
import type { ActionHandler } from '../conversation/actions.ts';
import type { NamedValidator } from '../engine/types.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { formatDiagnostic } from '../flow/diagnostic.ts';
import type { FlowV1 } from '../flow/schema.ts';
import { QuestlineUsageError } from '../shared/usage-error.ts';
import { converse, type Conversation, type ConverseOptions } from './converse.ts';
import { openFlow, type FlowDocumentInput, type OpenFlowOptions } from './open-flow.ts';

// The typed path, in the manner of xstate's setup(): the implementations are
// given first, and the flow document written after them is typed by them —
// a validator or action the flow names that is not among them is a
// TypeScript error where it is written, before anything runs.

/** A flow document as written (zod's input type of a v1 flow). */
type FlowInput = z.input<ReturnType<typeof FlowV1>>;
type NodeInput = FlowInput['nodes'][number];
type QuestionInput = Extract<NodeInput, { type: 'question' }>;
type RuleInput = NonNullable<QuestionInput['validate']>[number];

/** A validate rule whose `name` is one of the validators given. */
type TypedRule<VN extends string> = RuleInput extends infer R ? (R extends { name: string } ? Omit<R, 'name'> & { name: VN } : R) : never;

/** A node whose validator names and action call are tied to the implementations given. */
type TypedNode<N, VN extends string, AN extends string> =
  N extends { type: 'question' } ? Omit<N, 'validate'> & { validate?: Array<TypedRule<VN>> }
  : N extends { type: 'action' } ? Omit<N, 'call'> & { call: AN }
  : N;

/** A v1 flow document whose named validators (`VN`) and actions (`AN`) must be among those given to setup(). */
export type TypedFlow<VN extends string, AN extends string> = Omit<FlowInput, 'nodes'> & { nodes: Array<TypedNode<NodeInput, VN, AN>> };

/** What setup() returns: flows typed by the implementations, and conversations that run with them. */
export interface QuestlineSetup<V extends string, A extends string> {
  /** Compiles a flow written in code; its validator and action names are checked by TypeScript, its problems at compile (QuestlineUsageError). */
  flow(doc: TypedFlow<V, A>, opts?: OpenFlowOptions): CompiledFlow;
  /** converse() with these implementations. */
  converse(flow: CompiledFlow, opts?: Omit<ConverseOptions, 'validators' | 'actions'>): Conversation;
  /** The implementations given. */
  readonly validators: Readonly<Record<V, NamedValidator>>;
  readonly actions: Readonly<Record<A, ActionHandler>>;
}

/**
 * The typed way in: `setup({ validators, actions }).flow({ … })` types the
 * flow document by the implementations (a misspelled validator is a
 * TypeScript error), compiles it, and `.converse(flow)` runs it with them.
 */
export function setup<V extends string = never, A extends string = never>(
  impl: { validators?: Readonly<Record<V, NamedValidator>>; actions?: Readonly<Record<A, ActionHandler>> },
): QuestlineSetup<V, A> {
  const validators = (impl.validators ?? {}) as Readonly<Record<V, NamedValidator>>;
  const actions = (impl.actions ?? {}) as Readonly<Record<A, ActionHandler>>;
  return {
    validators,
    actions,
    flow(doc, opts = {}) {
      const opened = openFlow(doc as unknown as FlowDocumentInput, { file: `<flow ${String((doc as { id?: unknown }).id ?? '')}>`, ...opts });
      if (!opened.ok) {
        throw new QuestlineUsageError('invalid_argument', 'setup(…).flow(document): the flow does not compile:',
          opened.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic));
      }
      return opened.flow;
    },
    converse: (flow, opts = {}) => converse(flow, { ...opts, validators, actions }),
  };
}
