import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirectoryArchive, FlowRegistry, MemoryArchive } from '../../server/catalog/registry.ts';
import { start, turn } from '../../server/engine/engine.ts';
import { sessionFromJson, sessionToJson, SESSION_VERSION } from '../../server/engine/session.ts';
import { compileFile } from '../../server/flow/document.ts';

const NOW = '2026-01-15T10:00:00Z';
const msg = (key: string, value: unknown) => ({ kind: 'message' as const, text: String(value), now: NOW, proposal: { extractor: 'test', updates: [{ key, value }], unknown: [] } });

function compile(file: string) {
  const r = compileFile(file);
  if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}

describe('pinned revisions', () => {
  it('a session started on revision A finishes on A after the flow file changes to B, even across a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'questline-rev-'));
    const file = join(dir, 'f.flow.json');
    const doc = { version: 'v1', id: 'flow.r', nodes: [
      { id: 'q.a', type: 'question', key: 'a', prompt: 'First?' },
      { id: 'q.b', type: 'question', key: 'b', prompt: 'Second (A)?' },
      { id: 'n.end', type: 'terminal' },
    ] };
    writeFileSync(file, JSON.stringify(doc));
    const archive = new DirectoryArchive(join(dir, 'archive'));
    const registry = new FlowRegistry(archive);
    const a = compile(file);
    registry.publish(a);
    let session = start(registry.latest('flow.r')!, { now: NOW }).session;
    session = turn(a, session, msg('a', 'x')).session;
    const stored = JSON.stringify(sessionToJson(session));

    // the author publishes B: another prompt and a new question
    writeFileSync(file, JSON.stringify({ ...doc, nodes: [doc.nodes[0], { ...doc.nodes[1], prompt: 'Second (B)?' }, { id: 'q.c', type: 'question', key: 'c' }, doc.nodes[2]] }));
    const afterRestart = new FlowRegistry(new DirectoryArchive(join(dir, 'archive')));
    const b = compile(file);
    afterRestart.publish(b);
    expect(b.revision).not.toBe(a.revision);

    const resumed = sessionFromJson(JSON.parse(stored));
    const pinned = afterRestart.pinned(resumed.flow.id, resumed.flow.revision)!;
    expect(pinned.revision).toBe(a.revision);
    expect(() => turn(b, resumed, msg('b', 'y'))).toThrow(/pinned/);
    const done = turn(pinned, resumed, msg('b', 'y'));
    expect(done.session.status).toBe('completed');
    expect(done.session.answers.has('c')).toBe(false);
    const fresh = start(afterRestart.latest('flow.r')!, { now: NOW });
    expect(fresh.session.flow.revision).toBe(b.revision);
    expect(JSON.parse(readFileSync(join(dir, 'archive', 'flow.r', `${a.revision}.json`), 'utf8')).id).toBe('flow.r');
  });

  it('an archived plain flow recompiles to the same revision for every shipped flow', () => {
    for (const f of ['flows/global/sales.flow.json', 'flows/global/patient-intake.flow.yaml', 'flows/global/checklist.v0.json', 'flows/global/newsletter.flow.json']) {
      const flow = compile(f);
      const archive = new MemoryArchive();
      new FlowRegistry(archive).publish(flow);
      const other = new FlowRegistry(archive);
      expect(other.pinned(flow.id, flow.revision)?.revision, f).toBe(flow.revision);
    }
  });
});

describe('session schema versions', () => {
  it('upgrades a stored v1 session on read and refuses one from a newer server', () => {
    const flow = compile('flows/global/newsletter.flow.json');
    const current = sessionToJson(start(flow, { now: NOW }).session);
    const { reask: _r, ...rest } = current;
    const v1 = { ...rest, v: 1, revisit: 'email' };
    const upgraded = sessionFromJson(v1);
    expect(upgraded.v).toBe(SESSION_VERSION);
    expect(upgraded.reask).toEqual(['email']);
    expect(() => sessionFromJson({ ...current, v: SESSION_VERSION + 1 })).toThrow(/newer/);
  });
});
