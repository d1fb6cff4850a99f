import { z } from 'zod';
import { lazy } from '../shared/lazy.ts';
import { checkImplementations as checkNames, type FlowSource } from '../catalog/implementations-check.ts';
import type { Diagnostic } from '../flow/diagnostic.ts';
import { checkArgs } from '../shared/check-args.ts';
import { compiledFlowArg } from './flow-arg.ts';
import { originOf } from './flow-origin.ts';

/** The names a host registered, as lists of names or as the implementations themselves (`{ validators, actions }` as converse takes them). */
export interface Registered {
  validators?: Iterable<string> | Readonly<Record<string, unknown>>;
  actions?: Iterable<string> | Readonly<Record<string, unknown>>;
}

const Names = lazy(() => z.union([
  z.array(z.string()),
  z.custom<Iterable<string>>((v) => v instanceof Set || v instanceof Map),
  z.record(z.string(), z.unknown()),
], { message: 'expected the implementations ({ name: fn }) or a list of their names' }));

const RegisteredShape = lazy(() => z.strictObject({ validators: Names().optional(), actions: Names().optional() }));

const namesIn = (x: Registered['validators']): string[] =>
  x === undefined ? [] : Array.isArray(x) ? x : x instanceof Set ? [...x] : x instanceof Map ? [...x.keys()] : Object.keys(x);

/**
 * Every validator and action the flow names that is not registered, as
 * error diagnostics (file:line:col for a flow openFlow read from a file).
 * Takes the implementations as converse does, or lists of names.
 */
export function checkImplementations(flow: unknown, registered: Registered = {}, source?: FlowSource): Diagnostic[] {
  const compiled = compiledFlowArg('checkImplementations(flow, { validators, actions })', flow);
  checkArgs('checkImplementations(flow, { validators, actions })', 'registered', RegisteredShape(), registered);
  return checkNames(compiled, { validators: namesIn(registered.validators), actions: namesIn(registered.actions) }, source ?? originOf(compiled));
}
