import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { graphCommand } from '../../server/cli/graph.ts';
import { main } from '../../server/cli/main.ts';
import { GraphLayout } from '../../server/render/graph-layout.ts';

/** Runs the CLI in-process and captures what it prints. */
async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t.endsWith('\n') ? t : `${t}\n`), err: (t) => (err += t.endsWith('\n') ? t : `${t}\n`) });
  return { code, out, err };
}

const capture = () => {
  const io = { out: '', err: '', io: { out: (t: string) => (io.out += t), err: (t: string) => (io.err += `${t}\n`) } };
  return io;
};

const dir = mkdtempSync(join(tmpdir(), 'questline-graph-'));
const SALES = 'flows/global/sales.flow.json';

describe('questline graph', () => {
  it('prints the layout JSON with --format json', async () => {
    const r = await run('graph', SALES, '--format', 'json');
    expect(r.code).toBe(0);
    const layout = GraphLayout.parse(JSON.parse(r.out));
    expect(layout.flow.id).toBe('flow.sales');
  });

  it('prints a self-contained HTML page with --format html', async () => {
    const r = await run('graph', 'flows/global/patient-intake.flow.yaml', '--format', 'html');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^<!doctype html>/);
    expect(r.out).toContain('<svg id="graph"');
  });

  it('still prints Mermaid by default', async () => {
    const r = await run('graph', SALES);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^flowchart TD/);
  });

  it('exits 2 for an unknown format, naming the ones it knows', async () => {
    const r = await run('graph', SALES, '--format', 'png');
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown format 'png' (available: mermaid, json, html)");
    expect(r.out).toBe('');
  });

  it('exits 2 without a flow argument', async () => {
    expect((await run('graph', '--format', 'json')).code).toBe(2);
  });

  it('exits 1 with file:line:col for a flow that does not compile', async () => {
    const file = join(dir, 'bad.flow.json');
    writeFileSync(file, '{ "version": "v1", "id": "f", "nodes": [ { "id": "q.a", "type": "question", "key": "a" } ],\n  "edges": [ { "from": "q.a", "to": "q.nope" } ] }\n');
    const r = await run('graph', file, '--format', 'html');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: error`));
    expect(r.out).toBe('');
  });

  it('exits 1 for a missing file', async () => {
    expect((await run('graph', join(dir, 'missing.flow.json'), '--format', 'json')).code).toBe(1);
  });

  it('writes to a file with the output option', async () => {
    const file = join(dir, 'sales.html');
    const c = capture();
    expect(await graphCommand(SALES, { format: 'html', output: file }, c.io)).toBe(0);
    expect(c.out).toBe('');
    expect(c.err).toContain(`wrote ${file}`);
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('exits 1 when the output file cannot be written', async () => {
    const c = capture();
    expect(await graphCommand(SALES, { format: 'json', output: join(dir, 'no-such-dir', 'x.json') }, c.io)).toBe(1);
    expect(c.err).toContain('cannot write');
  });
});
