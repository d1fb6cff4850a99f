import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers, cycles, directionViolations, layerOf } from '../support/layers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('layering of server/ and client/', () => {
  it('has no upward import, no sibling import, no client import outside the protocol, and no cycle', () => {
    expect(checkLayers(ROOT).map((v) => v.message)).toEqual([]);
  });

  it('reports an upward import (the engine reaching into the conversation service)', () => {
    const v = directionViolations([{ from: 'server/engine/engine.ts', to: 'server/conversation/service.ts' }]);
    expect(v).toEqual([{ kind: 'upward', message: expect.stringContaining('server/engine sits below server/conversation') }]);
  });

  it('reports an import between siblings (HTTP and sockets share only server/transport)', () => {
    const v = directionViolations([{ from: 'server/transport/socket/chat.ts', to: 'server/transport/http/errors.ts' }]);
    expect(v.map((x) => x.kind)).toEqual(['sibling']);
  });

  it('reports client code importing anything but the wire protocol', () => {
    expect(directionViolations([{ from: 'client/widget/index.ts', to: 'server/conversation/service.ts' }]).map((x) => x.kind)).toEqual(['client']);
    expect(directionViolations([{ from: 'client/widget/index.ts', to: 'server/protocol/wire.ts' }])).toEqual([]);
  });

  it('allows imports downward and within a folder', () => {
    expect(directionViolations([
      { from: 'server/conversation/service.ts', to: 'server/engine/engine.ts' },
      { from: 'server/engine/engine.ts', to: 'server/engine/traverse.ts' },
      { from: 'server/main.ts', to: 'server/transport/http/app.ts' },
    ])).toEqual([]);
  });

  it('finds a cycle of files, including a type-only one', () => {
    expect(cycles([
      { from: 'a.ts', to: 'b.ts' }, { from: 'b.ts', to: 'c.ts' }, { from: 'c.ts', to: 'a.ts' }, { from: 'c.ts', to: 'd.ts' },
    ])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cycles([{ from: 'a.ts', to: 'b.ts' }])).toEqual([]);
  });

  it('places files in the deepest listed folder', () => {
    expect(layerOf('server/transport/http/app.ts')?.folder).toBe('server/transport/http');
    expect(layerOf('server/transport/origins.ts')?.folder).toBe('server/transport');
    expect(layerOf('server/main.ts')?.folder).toBe('server');
    expect(layerOf('server/flow/guard/parse.ts')?.folder).toBe('server/flow');
  });
});
