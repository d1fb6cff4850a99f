import { describe, expect, it } from 'vitest';
import { expandFlowPaths } from '../../server/cli/validate.ts';
import { compileFile } from '../../server/flow/document.ts';

describe('shipped flows', () => {
  const files = expandFlowPaths(['flows']);

  it('finds every sample flow', () => {
    expect(files).toEqual(expect.arrayContaining([
      'flows/examples/seed-sales.flow.json',
      'flows/global/sales.flow.json',
      'flows/global/patient-intake.flow.yaml',
      'flows/global/checklist.v0.json',
    ]));
  });

  it.each(files)('%s compiles with no errors', (file) => {
    const result = compileFile(file);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.kind === 'flow' || result.kind === 'overlay').toBe(true);
  });
});
