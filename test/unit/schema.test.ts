import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { expandFlowPaths } from '../../server/cli/validate.ts';
import { compileFile, compileText } from '../../server/flow/document.ts';
import { flowDocumentJsonSchemaText, outputsJsonSchema } from '../../server/flow/json-schema.ts';
import { loadFlowFile } from '../../server/flow/load.ts';
import { FlowV0, FlowV1, Overlay } from '../../server/flow/schema.ts';

const flowFiles = expandFlowPaths(['flows']);

describe('flow JSON Schema', () => {
  it('flows/flow.schema.json is up to date with the zod schemas (run npm run schema)', () => {
    expect(readFileSync('flows/flow.schema.json', 'utf8')).toBe(flowDocumentJsonSchemaText());
  });

  it('describes every node type and answer type', () => {
    const text = flowDocumentJsonSchemaText();
    for (const t of ['question', 'decision', 'action', 'subgraph', 'terminal', 'enum', 'phone', 'date', 'url', 'interrupt', 'assess', 'routes', 'oneOf', 'layer']) {
      expect(text, t).toContain(`"${t}"`);
    }
  });

  it('the sample flows point their $schema at it', () => {
    for (const file of ['flows/global/sales.flow.json', 'flows/global/patient-intake.flow.yaml', 'flows/global/newsletter.flow.json']) {
      const loaded = loadFlowFile(file);
      expect(loaded.ok && (loaded.doc.data as { $schema?: string }).$schema, file).toBe('../flow.schema.json');
    }
  });
});

describe('round trip', () => {
  it.each(flowFiles)('%s: load → serialize → load is identical (JSON and YAML)', (file) => {
    const loaded = loadFlowFile(file);
    if (!loaded.ok) throw new Error(`cannot load ${file}`);
    const data = loaded.doc.data as { version: string; layer?: string };
    const schema = data.version === 'v0' ? FlowV0() : data.layer ? Overlay() : FlowV1();
    const first = schema.parse(data);
    const viaJson = schema.parse(JSON.parse(JSON.stringify(first)));
    expect(viaJson).toEqual(first);
    const viaYaml = compileText(toYaml(first), `${file}.yaml`);
    const direct = compileFile(file);
    expect(viaYaml.kind).toBe(direct.kind);
    expect(viaYaml.kind === 'flow' && viaYaml.flow?.revision).toBe(direct.kind === 'flow' && direct.flow?.revision);
  });
});

describe('revision', () => {
  const base = { version: 'v1', id: 'f', nodes: [{ id: 'q', type: 'question', key: 'k', prompt: 'K?' }, { id: 'e', type: 'terminal' }] };
  const rev = (doc: unknown) => {
    const r = compileText(JSON.stringify(doc), 'f.json');
    return r.kind === 'flow' ? r.flow?.revision : undefined;
  };

  it('does not depend on key order or on sugar versus explicit edges', () => {
    const reordered = { nodes: base.nodes.map((n) => Object.fromEntries(Object.entries(n).reverse())), id: 'f', version: 'v1' };
    const explicit = { ...base, edges: [{ from: 'q', to: 'e' }] };
    expect(rev(base)).toBeDefined();
    expect(rev(reordered)).toBe(rev(base));
    expect(rev(explicit)).toBe(rev(base));
  });

  it('changes when the content changes', () => {
    const changed = { ...base, nodes: [{ ...base.nodes[0], prompt: 'Key?' }, base.nodes[1]] };
    expect(rev(changed)).not.toBe(rev(base));
  });
});

describe('sugar', () => {
  it('a flow with nodes and no edges is a sequence; a subgraph sequence ends at __exit__', () => {
    const r = compileText(JSON.stringify({
      version: 'v1', id: 'f',
      nodes: [{ id: 'a', type: 'question', key: 'a' }, { id: 'sg', type: 'subgraph', ref: 's' }, { id: 'end', type: 'terminal' }],
      subgraphs: { s: { nodes: [{ id: 'b', type: 'question', key: 'b' }, { id: 'c', type: 'question', key: 'c' }] } },
    }), 'f.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
    expect(r.flow.source.edges).toEqual([{ from: 'a', to: 'sg' }, { from: 'sg', to: 'end' }]);
    expect(r.flow.source.subgraphs?.s?.edges).toEqual([{ from: 'b', to: 'c' }, { from: 'c', to: '__exit__' }]);
  });

  it("a decision's routes compile to guarded edges in case order, default as else, typed by the answer", () => {
    const r = compileText(JSON.stringify({
      version: 'v1', id: 'f',
      nodes: [
        { id: 'q', type: 'question', key: 'big', answer: { type: 'boolean' } },
        { id: 'd', type: 'decision', routes: { on: 'answers.big', cases: { true: 'yes', false: 'no' }, default: 'no' } },
        { id: 'yes', type: 'terminal' }, { id: 'no', type: 'terminal' },
      ],
      edges: [{ from: 'q', to: 'd' }],
    }), 'f.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
    const out = r.flow.nodes.get('d')!.out;
    expect(out.map((e) => [e.to, e.source.guard])).toEqual([['yes', '(answers.big) == true'], ['no', '(answers.big) == false'], ['no', 'else']]);
    const guard = out[0]!.guard;
    expect(guard !== null && guard !== 'else' && guard.test({ answers: { big: true } })).toBe(true);
    expect(r.flow.source.nodes.find((n) => n.id === 'd')).not.toHaveProperty('routes');
  });
});

describe('outputs schema', () => {
  it('derives a typed JSON Schema of the answers from the questions', () => {
    const r = compileFile('flows/global/sales.flow.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('sales flow did not compile');
    const schema = outputsJsonSchema(r.flow) as { properties: Record<string, Record<string, unknown>>; additionalProperties: boolean };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.court_size).toMatchObject({ type: 'integer' });
    expect(schema.properties.intention).toMatchObject({ enum: ['buy_led', 'support', 'other'] });
    expect(schema.properties.email!.anyOf ?? schema.properties.email!.type).toBeDefined();
    expect(JSON.stringify(schema.properties.email)).toContain('x-pii');
    expect(schema.properties.crm_account_id).toBeDefined(); // set by an action
  });
});
