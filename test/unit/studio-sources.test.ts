import { describe, expect, it } from 'vitest';
import { sourceFile, sourceKind } from '../../server/catalog/sources.ts';

describe('Studio source paths', () => {
  it('names the three kinds of source file', () => {
    expect(sourceKind('global/patient-intake.flow.yaml')).toBe('global');
    expect(sourceKind('packs/lighting/sales.json')).toBe('pack');
    expect(sourceKind('tenants/acme/sales.json')).toBe('tenant');
  });

  it('refuses traversals, absolute paths, hidden files and what is not a flow document', () => {
    for (const p of ['../package.json', 'global/../../package.json', 'global/./x.json', '/etc/passwd', 'global\\x.json', 'global/.x.json',
      'global/flow.schema.json', 'tenants/acme/tenant.json', 'global/sales-happy.golden.yaml', 'global/sub/x.json', 'x.json', 'tenants/acme/..', 'global/x.txt']) {
      expect(sourceKind(p), p).toBeUndefined();
      expect(sourceFile('/srv/flows', p), p).toBeUndefined();
    }
  });

  it('resolves a source under FLOWS_DIR', () => {
    expect(sourceFile('/srv/flows', 'tenants/acme/sales.json')).toBe('/srv/flows/tenants/acme/sales.json');
  });
});
