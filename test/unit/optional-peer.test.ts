import { describe, expect, it } from 'vitest';
import { isMissingPackage } from '../../server/shared/optional-peer.ts';

describe('isMissingPackage', () => {
  it('recognizes the failed import of a package that is not installed, by name', async () => {
    const err = await import('@questline-test/not-installed' as string).catch((e: unknown) => e);
    expect(isMissingPackage(err, '@questline-test/not-installed')).toBe(true);
    // another package's absence is not this one's
    expect(isMissingPackage(err, '@dagrejs/dagre')).toBe(false);
  });

  it('does not take other failures for a missing package', async () => {
    expect(isMissingPackage(new Error("Cannot find package '@dagrejs/dagre'"), '@dagrejs/dagre')).toBe(false);
    expect(isMissingPackage(null, '@dagrejs/dagre')).toBe(false);
    const syntax = await import('data:text/javascript,export const x = ;' as string).catch((e: unknown) => e);
    expect(isMissingPackage(syntax, '@dagrejs/dagre')).toBe(false);
  });
});
