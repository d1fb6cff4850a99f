import { describe, expect, it } from 'vitest';
import { importOptional, MissingPeerError } from '../../server/shared/optional-peer.ts';

// An optional peer that is not installed is a one-line error naming the
// package to install; any other failure of the import passes through.

describe('importOptional', () => {
  it('turns a package that is not installed into a one-line error naming it', async () => {
    const err = await importOptional(() => import('questline-no-such-package' as string), 'questline-no-such-package', 'The thing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingPeerError);
    expect((err as Error).message).toBe('The thing needs the optional package questline-no-such-package, which is not installed here (npm install questline-no-such-package).');
    expect((err as Error).message).not.toContain('\n');
  });

  it('passes any other error through', async () => {
    const boom = new Error('boom');
    await expect(importOptional(() => Promise.reject(boom), 'ioredis', 'STORE=redis')).rejects.toBe(boom);
  });

  it('returns the module when it loads', async () => {
    const m = await importOptional(() => import('node:path'), 'node:path', 'paths');
    expect(typeof m.join).toBe('function');
  });
});
