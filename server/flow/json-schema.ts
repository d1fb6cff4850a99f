import { z } from 'zod';
import type { CompiledFlow } from './compiled-flow.ts';
import { FlowV0, FlowV1, Overlay } from './schema.ts';

/** The JSON Schema of flow files (v1 flows, overlays, v0 checklists), generated from the zod IR. */
export function flowDocumentJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(z.union([FlowV1(), Overlay(), FlowV0()]), { target: 'draft-2020-12', unrepresentable: 'any' });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://questline.dev/schema/flow.schema.json',
    title: 'Questline flow (IR v1, pack overlay, or v0 checklist)',
    description: 'Generated from server/flow/schema.ts by `npm run schema`; do not edit by hand.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

/** The file content of flows/flow.schema.json: stable, two-space JSON with a final newline. */
export function flowDocumentJsonSchemaText(): string {
  return `${JSON.stringify(flowDocumentJsonSchema(), null, 2)}\n`;
}

/**
 * The JSON Schema of a flow's outputs: one property per answer key, typed by
 * its question (null when an optional question was skipped). Keys set only by
 * actions accept any JSON value.
 */
export function outputsJsonSchema(flow: CompiledFlow): Record<string, unknown> {
  const shape: Record<string, z.ZodType> = {};
  for (const key of [...flow.keys.keys()].sort()) {
    const question = [...flow.nodes.values()].find((n) => n.node.type === 'question' && n.node.key === key);
    if (!question?.valueSchema || question.node.type !== 'question') {
      const assessed = [...flow.nodes.values()].find((n) => n.node.type === 'question' && n.node.assess?.feedback_key === key);
      shape[key] = assessed ? z.string().describe(`feedback on the answer to '${assessed.node.id}'`) : z.unknown().describe('set by an action');
      continue;
    }
    const q = question.node;
    const about = q.label ?? (typeof q.prompt === 'string' ? q.prompt : q.prompt?.[0]) ?? key;
    const base = q.required === false ? question.valueSchema.nullable() : question.valueSchema;
    shape[key] = base.describe(about).meta(q.pii ? { 'x-pii': true } : {});
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `${flow.id} outputs`,
    'x-revision': flow.revision,
    ...Object.fromEntries(
      Object.entries(z.toJSONSchema(z.object(shape).partial().strict(), { unrepresentable: 'any' })).filter(([k]) => k !== '$schema'),
    ),
  };
}
