import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFlow } from '../../server/api/open-flow.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { REPO_FLOWS } from '../support/server.ts';

const SALES = join(REPO_FLOWS, 'global', 'sales.flow.json');
/** The option values of an enum question (plain strings or `{ value }` objects). */
const options = (flow: CompiledFlow, id: string): string[] => {
  const node = flow.nodes.get(id)?.node;
  const list = node?.type === 'question' && node.answer?.type === 'enum' ? node.answer.options : [];
  return list.map((o) => (typeof o === 'string' ? o : o.value));
};
const prompt = (flow: CompiledFlow, id: string): string => {
  const node = flow.nodes.get(id)?.node;
  return node?.type === 'question' ? JSON.stringify(node.prompt) : '';
};
const said = (flow: CompiledFlow, id: string): string => JSON.stringify(flow.nodes.get(id)?.node.say ?? '');

describe('openFlow', () => {
  it('layers a pack, and a tenant with its packs and overlays, over a flow file', () => {
    const plain = openFlow(SALES);
    const packed = openFlow(SALES, { packs: ['lighting'], flowsDir: REPO_FLOWS });
    const acme = openFlow(SALES, { tenant: 'acme', flowsDir: REPO_FLOWS });
    if (!plain.ok || !packed.ok || !acme.ok) throw new Error('the sales flow should open');
    expect(options(plain.flow, 'q.venue')).not.toContain('training_facility');
    expect(options(packed.flow, 'q.venue')).toContain('training_facility');
    expect(said(acme.flow, 'n.start')).toContain('Welcome to Acme Lighting');
    expect(said(plain.flow, 'n.start')).not.toContain('Acme Lighting');
    expect(prompt(acme.flow, 'q.intent')).toContain('Are you after new LED lighting');
    expect(prompt(plain.flow, 'q.intent')).not.toContain('Are you after new LED lighting');
    expect(packed.flow.revision).not.toBe(plain.flow.revision);
  });

  it('returns diagnostics as data for an unknown pack or tenant, an overlay, or a missing file', () => {
    expect(openFlow(SALES, { packs: ['nope'], flowsDir: REPO_FLOWS })).toMatchObject({ ok: false, diagnostics: [expect.objectContaining({ code: 'unknown_pack' })] });
    expect(openFlow(SALES, { tenant: 'nobody', flowsDir: REPO_FLOWS })).toMatchObject({ ok: false, diagnostics: [expect.objectContaining({ code: 'unknown_tenant' })] });
    expect(openFlow({ version: 'v1', layer: 'industry', extends: 'flow.sales', nodes: [] })).toMatchObject({ ok: false, diagnostics: [expect.objectContaining({ code: 'not_a_flow' })] });
    expect(openFlow(join(REPO_FLOWS, 'global', 'missing.flow.json')).ok).toBe(false);
  });
});
