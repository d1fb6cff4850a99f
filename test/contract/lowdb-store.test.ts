import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, unlink, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultOpenFiles, lastRecord, LowdbStore } from '../../server/store/lowdb.ts';
import { sessionPaths } from '../../server/store/lowdb-paths.ts';
import { LowSync } from 'lowdb';
import { JsonlAppender } from '../../server/store/lowdb-jsonl.ts';
import { deltaLine, FULL_EVERY, recordLine, SessionFileAdapter, type SessionDoc } from '../../server/store/lowdb-session-file.ts';
import { event, HOSTILE_IDS, line, NO_TURN, sessionStoreContract, storedSession } from '../../server/testing/session-store.contract.ts';

const dirs: string[] = [];
const open: LowdbStore[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'questline-lowdb-'));
  dirs.push(dir);
  return dir;
}

async function openStore(dir: string, opts?: { cacheSize?: number; openFiles?: number }): Promise<LowdbStore> {
  const s = await LowdbStore.open(dir, opts);
  open.push(s);
  return s;
}

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

sessionStoreContract('LowdbStore', async () => {
  const dir = await tempDir();
  let current = await LowdbStore.open(dir);
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = await LowdbStore.open(dir);
      return current;
    },
    cleanup: async () => {
      await current.close();
    },
  };
});

/**
 * A session created in `store` whose every commit changes a 4,000-character
 * part of its record, so record lines (deltas of what changed) are most of its
 * file: `commit(v)` saves turn v (one transcript line) and keeps `rec` current.
 */
async function paddedSession(store: LowdbStore, dir: string, id: string) {
  const first = storedSession(id, { tokenHash: createHash('sha256').update(id).digest('hex') });
  await store.create(first, NO_TURN);
  const pad = (v: number) => ({ ...first.session, context: { pad: `${v}`.padEnd(4_000, 'x') } });
  const s = {
    rec: first,
    paths: sessionPaths(dir, id),
    pad,
    async commit(v: number): Promise<void> {
      const r = await store.commit({ ...s.rec, seq: v, session: pad(v) }, s.rec.version, { transcript: [line(v)], events: [] });
      s.rec = { ...s.rec, seq: v, session: pad(v), version: (r as { version: number }).version };
    },
  };
  return s;
}

/** Every file under `dir` (relative path → sha256 of its content). */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out.set(relative(dir, file), createHash('sha256').update(await readFile(file)).digest('hex'));
  }
  return out;
}

/** A pid that no process has any more. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe('LowdbStore data directory', () => {
  it('refuses a second store on a data directory that is open, naming the owner', async () => {
    const dir = await tempDir();
    await openStore(dir);
    await expect(LowdbStore.open(dir)).rejects.toThrow(
      new RegExp(`data directory .* is in use by this process \\(${process.pid}.*run one server per data directory, or use STORE=redis`),
    );
  });

  it('writes its pid to DATA_DIR/.lock and removes it on close, so the directory can be opened again', async () => {
    const dir = await tempDir();
    const first = await LowdbStore.open(dir);
    expect((await readFile(join(dir, '.lock'), 'utf8')).trim()).toBe(String(process.pid));
    await first.close();
    await expect(stat(join(dir, '.lock'))).rejects.toMatchObject({ code: 'ENOENT' });
    const second = await openStore(dir);
    expect(await second.load('session-1')).toBeNull();
  });

  it('refuses a directory locked by another live process', async () => {
    const dir = await tempDir();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(join(dir, '.lock'), `${child.pid}\n`);
      await expect(LowdbStore.open(dir)).rejects.toThrow(`is in use by process ${child.pid}`);
      expect((await readFile(join(dir, '.lock'), 'utf8')).trim()).toBe(String(child.pid));
    } finally {
      child.kill();
    }
  });

  it('takes over a stale lock whose process is gone', async () => {
    const dir = await tempDir();
    const pid = deadPid();
    await writeFile(join(dir, '.lock'), `${pid}\n`);
    const store = await openStore(dir);
    expect((await readFile(join(dir, '.lock'), 'utf8')).trim()).toBe(String(process.pid));
    expect(await store.create(storedSession('session-1'), NO_TURN)).toEqual({ ok: true });
  });

  it('refuses to be used before open and after close', async () => {
    const dir = await tempDir();
    const store = new LowdbStore(dir);
    await expect(store.load('session-1')).rejects.toThrow(/not open/);
    await store.open();
    await store.close();
    await expect(store.load('session-1')).rejects.toThrow(/closed/);
    await store.close(); // idempotent
  });
});

describe('LowdbStore files', () => {
  it('keeps one file per session in a 2-character shard, a record line per commit (whole, then deltas) after its transcript lines, with no temp files left', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    for (let n = 0; n < 20; n++) {
      let rec = storedSession(`session-${n}`);
      await store.create(rec, NO_TURN);
      for (let v = 1; v <= 5; v++) {
        const r = await store.commit({ ...rec, seq: v }, rec.version, { transcript: [line(v)], events: [] });
        rec = { ...rec, seq: v, version: (r as { version: number }).version };
      }
    }
    await Promise.all([1, 2, 3].map(() => store.commit(storedSession('session-0'), 6, NO_TURN)));
    const files = [...(await snapshot(dir)).keys()].sort();
    expect(files.filter((f) => f.includes('.tmp'))).toEqual([]);
    const sessions = files.filter((f) => f.startsWith('sessions/'));
    expect(sessions).toHaveLength(20);
    for (const f of sessions) expect(f).toMatch(/^sessions\/[0-9a-f]{2}\/session-\d+\.jsonl$/);
    const paths = sessionPaths(dir, 'session-3');
    const lines = (await readFile(paths.file, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.map((l) => Object.keys(l)[0])).toEqual(['r', 't', 'd', 't', 'd', 't', 'd', 't', 'd', 't', 'd']);
    expect(parsed[0].r.version).toBe(1);
    expect(parsed.filter((l) => l.d).map((l) => l.d.b)).toEqual([1, 2, 3, 4, 5]);
    expect(parsed.filter((l) => l.t).map((l) => l.t)).toEqual([1, 2, 3, 4, 5].map((v) => [line(v)]));
    const onDisk = lastRecord(await readFile(paths.file, 'utf8'))!;
    expect(onDisk).toStrictEqual(await store.load('session-3'));
    expect(onDisk.version).toBe(6);
  });

  it('writes most saves as deltas folded back on read, a whole record every FULL_EVERY saves, and reads past a delta line torn by a crash', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    let rec = storedSession('session-delta');
    await store.create(rec, NO_TURN);
    const paths = sessionPaths(dir, rec.id);
    const turns = FULL_EVERY + 5;
    for (let v = 1; v <= turns; v++) {
      const s = rec.session;
      const next: typeof rec = {
        ...rec, seq: v, updatedAt: `2026-01-15T10:00:${String(v % 60).padStart(2, '0')}Z`,
        processed: [...rec.processed, { clientId: `c${v}`, seq: v }].slice(-5), // grows, then slides
        operator: v % 3 === 0 ? { since: '2026-01-15T10:00:00Z' } : undefined, // comes and goes
        session: { ...s, turn: v, answers: { ...s.answers, [`k${v}`]: { value: v, turn: v, source: 'user' as const, validation: 'passed' as const } }, recent: [...(s.recent ?? []), { role: 'user' as const, text: `m${v}` }].slice(-3) },
      };
      const r = await store.commit(next, rec.version, { transcript: [line(v)], events: [] });
      rec = { ...next, version: (r as { version: number }).version };
    }
    const text = await readFile(paths.file, 'utf8');
    const kinds = text.trim().split('\n').map((l) => Object.keys(JSON.parse(l))[0]).filter((k) => k !== 't');
    expect(kinds).toEqual(['r', ...Array(FULL_EVERY).fill('d'), 'r', ...Array(turns - FULL_EVERY - 1).fill('d')]);
    expect(Buffer.byteLength(text.trim().split('\n').at(-1)!)).toBeLessThan(Buffer.byteLength(recordLine(rec)) / 2);
    // the JSON of the record, as a whole record line would give it (undefined fields dropped)
    const asRead = JSON.parse(JSON.stringify(rec));
    expect(lastRecord(text)).toStrictEqual(asRead);
    await store.close();
    store = await openStore(dir);
    expect(await store.load(rec.id)).toStrictEqual(asRead);
    expect((await store.transcript(rec.id)).map((e) => e.seq)).toEqual(Array.from({ length: turns }, (_, i) => i + 1));
    // a crash tears the next save's delta line: the record before it counts, and the retried save follows it
    await store.close();
    await appendFile(paths.file, deltaLine(asRead, { ...asRead, seq: turns + 1, version: rec.version + 1 }).slice(0, 30));
    store = await openStore(dir);
    expect(await store.load(rec.id)).toStrictEqual(asRead);
    expect(await store.commit({ ...asRead, seq: turns + 1 }, rec.version, NO_TURN)).toEqual({ ok: true, version: rec.version + 1 });
    expect(await store.commit({ ...asRead, seq: turns + 2 }, rec.version + 1, NO_TURN)).toEqual({ ok: true, version: rec.version + 2 });
    await store.close();
    store = await openStore(dir);
    expect(await store.load(rec.id)).toStrictEqual({ ...asRead, seq: turns + 2, version: rec.version + 2 });
  });

  it("writes only the committed session's file, whose size does not depend on how many sessions are stored", async () => {
    const oneDir = await tempDir();
    const manyDir = await tempDir();
    const one = await openStore(oneDir);
    const many = await openStore(manyDir);
    const rec = storedSession('session-target');
    await one.create(rec, NO_TURN);
    await many.create(rec, NO_TURN);
    for (let n = 0; n < 300; n++) await many.create(storedSession(`session-${String(n).padStart(4, '0')}`), NO_TURN);

    const before = await snapshot(manyDir);
    const next = { ...rec, seq: 1, status: 'completed' as const };
    expect(await one.commit(next, 1, NO_TURN)).toEqual({ ok: true, version: 2 });
    expect(await many.commit(next, 1, NO_TURN)).toEqual({ ok: true, version: 2 });
    const after = await snapshot(manyDir);

    const target = relative(manyDir, sessionPaths(manyDir, rec.id).file);
    const changed = [...after.keys()].filter((f) => after.get(f) !== before.get(f));
    expect(changed).toEqual([target]);
    expect(after.size).toBe(before.size);
    const size = (await stat(sessionPaths(manyDir, rec.id).file)).size;
    expect(size).toBe((await stat(sessionPaths(oneDir, rec.id).file)).size);
    // the delta is against the store's own copy of the created record (what a read of the file gives)
    expect(size).toBe(Buffer.byteLength(recordLine(rec) + deltaLine(JSON.parse(recordLine(rec)).r, { ...next, version: 2 })));
  });

  it('compacts a session file past 256 KB to its histories and last record (lowdb TextFile: temp file, rename)', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    const big = await paddedSession(store, dir, 'session-big');
    const lineBytes = Buffer.byteLength(JSON.stringify({ ...big.rec, session: big.pad(0) })) + 32;
    const sizes: number[] = [];
    const turns = Math.ceil((2 * 256 * 1024) / (4_000 + 64));
    for (let v = 1; v <= turns; v++) {
      await big.commit(v);
      sizes.push((await stat(big.paths.file)).size);
    }
    // turns go on while a compaction reads the file, so it may pass 256 KB by the lines written meanwhile
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * 256 * 1024);
    expect(lineBytes).toBeGreaterThan(4_000);
    expect(sizes.filter((s, i) => i > 0 && s < sizes[i - 1]!).length).toBeGreaterThanOrEqual(1); // it shrank
    expect(await store.load(big.rec.id)).toStrictEqual(big.rec);
    // the transcript survived every compaction; only old records were dropped
    expect((await store.transcript(big.rec.id)).map((e) => e.seq)).toEqual(Array.from({ length: turns }, (_, i) => i + 1));
    await store.close(); // waits for a compaction in progress
    expect((await readdir(big.paths.dir)).filter((f) => f.includes('.tmp'))).toEqual([]);
    store = await openStore(dir);
    expect(await store.load(big.rec.id)).toStrictEqual(big.rec);
  });

  it('carries history lines over a compaction byte for byte: text beyond ASCII, and a line torn by a crash', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    const s = await paddedSession(store, dir, 'session-bytes');
    const text = 'Grüße — 北京 🎉';
    const r = await store.commit({ ...s.rec, seq: 1 }, s.rec.version, { transcript: [{ ...line(1), text }], events: [] });
    s.rec = { ...s.rec, seq: 1, version: (r as { version: number }).version };
    await store.close();
    // a crash cut a transcript line in the middle of a character (the reopened store starts the next line on a new one)
    const torn = Buffer.from('{"t":[{"seq":2,"text":"€');
    await appendFile(s.paths.file, torn.subarray(0, torn.length - 1));
    store = await openStore(dir);
    let v = 1;
    let compacted = false;
    for (let last = 0; !compacted;) {
      v += 1;
      const c = await store.commit({ ...s.rec, seq: v, session: s.pad(v) }, s.rec.version, { transcript: [line(v)], events: [] });
      s.rec = { ...s.rec, seq: v, session: s.pad(v), version: (c as { version: number }).version };
      const size = (await stat(s.paths.file)).size;
      compacted = size < last;
      last = size;
    }
    await store.close(); // waits for the compaction
    const bytes = await readFile(s.paths.file);
    expect(bytes.includes(Buffer.concat([torn.subarray(0, torn.length - 1), Buffer.from('\n')]))).toBe(true); // kept as it was, not re-encoded
    expect(bytes.includes(Buffer.from(JSON.stringify(text)))).toBe(true);
    store = await openStore(dir);
    expect(await store.load(s.rec.id)).toStrictEqual(s.rec);
    const transcript = await store.transcript(s.rec.id);
    expect(transcript[0]!.text).toBe(text);
    expect(transcript.map((e) => e.seq)).toEqual(Array.from({ length: v }, (_, i) => i + 1));
  });

  it('keeps turns going while a compaction reads the file, and keeps the lines they wrote', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    const busy = await paddedSession(store, dir, 'session-busy');
    let v = 0;
    while (statSync(busy.paths.file).size <= 256 * 1024) await busy.commit(++v);
    // The last commit started a compaction; its read of the file is on the thread pool. From here to the size
    // check nothing lets the event loop poll (a synchronous stat; commits of a cached session wait on no I/O),
    // so that read cannot come back meanwhile: these commits run while it is out, and must not wait for it.
    const sizeAtStart = statSync(busy.paths.file).size;
    for (let i = 0; i < 3; i++) await busy.commit(++v);
    expect(statSync(busy.paths.file).size).toBeGreaterThan(sizeAtStart); // appended to the file being compacted, not queued
    await store.close(); // waits for the compaction
    expect((await stat(busy.paths.file)).size).toBeLessThan(sizeAtStart); // it did shrink
    store = await openStore(dir);
    // the record of the last commit, made of the compacted record and the delta lines written during the compaction
    expect(await store.load(busy.rec.id)).toStrictEqual(busy.rec);
    expect((await store.transcript(busy.rec.id)).map((e) => e.seq)).toEqual(Array.from({ length: v }, (_, i) => i + 1));
  });

  it('close() waits for a compaction still reading the file, and it finishes', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    const closing = await paddedSession(store, dir, 'session-closing');
    const turns = Math.ceil((256 * 1024) / 4_000) + 2; // the last commit crosses 256 KB
    let before = 0;
    for (let v = 1; v <= turns; v++) {
      if (v === turns) before = (await stat(closing.paths.file)).size;
      await closing.commit(v);
    }
    expect(before).toBeGreaterThan(256 * 1024 - 8_192);
    await store.close(); // at once: the compaction's read has not come back yet
    expect((await stat(closing.paths.file)).size).toBeLessThan(before);
    const again = await openStore(dir);
    expect(await again.load(closing.rec.id)).toStrictEqual(closing.rec);
  });

  it('writes text beyond ASCII as UTF-8, byte for byte, and reads it back after a reopen', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    const rec = storedSession('session-utf8', { tokenHash: 'd'.repeat(64) });
    await store.create(rec, NO_TURN);
    const said = 'Grüße — about 420 m², 😀 ok';
    const next = { ...rec, seq: 1, session: { ...rec.session, context: { note: said } } };
    await store.commit(next, rec.version, { transcript: [line(1, said)], events: [] });
    const paths = sessionPaths(dir, rec.id);
    const bytes = await readFile(paths.file);
    expect(bytes.toString('utf8')).toContain(`"text":"${said}"`);
    expect(Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)).toBe(true);
    await store.close();
    store = await openStore(dir);
    expect((await store.transcript(rec.id))[0]!.text).toBe(said);
    expect((await store.load(rec.id))!.session.context).toEqual({ note: said });
  });

  it('leaves a file past 256 KB alone while its record lines are under half of it (a compaction would not halve it)', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    let rec = storedSession('session-talky', { tokenHash: 'c'.repeat(64) });
    await store.create(rec, NO_TURN);
    const paths = sessionPaths(dir, rec.id);
    // long transcript lines, small delta lines: the histories are most of the file
    const turns = Math.ceil((320 * 1024) / 4_000);
    const sizes: number[] = [];
    for (let v = 1; v <= turns; v++) {
      const r = await store.commit({ ...rec, seq: v }, rec.version, { transcript: [line(v, `${v}`.padEnd(4_000, 'y'))], events: [] });
      rec = { ...rec, seq: v, version: (r as { version: number }).version };
      sizes.push((await stat(paths.file)).size);
    }
    expect(Math.max(...sizes)).toBeGreaterThan(300 * 1024);
    // never rewritten: every turn grew the file by its whole lines (a compaction would have taken the record lines out)
    expect(sizes.filter((s, i) => i > 0 && s - sizes[i - 1]! < 4_000)).toEqual([]);
    await store.close();
    expect(await readdir(paths.dir)).toEqual([`${rec.id}.jsonl`]);
  });

  it('reads the line before a record line torn by a crash mid-append, and the temp file of a compaction cut short', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    const rec = storedSession('session-1');
    await store.create(rec, NO_TURN);
    await store.commit({ ...rec, seq: 1 }, 1, NO_TURN);
    await store.close();
    const paths = sessionPaths(dir, rec.id);
    await appendFile(paths.file, `{"r":${JSON.stringify({ ...rec, seq: 2, version: 3 })}}`.slice(0, 40)); // the crash
    store = await openStore(dir);
    expect(await store.load(rec.id)).toStrictEqual({ ...rec, seq: 1, version: 2 });
    expect(await store.commit({ ...rec, seq: 2 }, 2, NO_TURN)).toEqual({ ok: true, version: 3 });
    await store.close();
    // a compaction stopped after the unlink, before the rename: only the temp file holds the record
    await writeFile(paths.tmp, `{"r":${JSON.stringify({ ...rec, seq: 2, version: 3 })}}\n`);
    await unlink(paths.file);
    store = await openStore(dir);
    expect(await store.load(rec.id)).toStrictEqual({ ...rec, seq: 2, version: 3 });
    expect(await readdir(paths.dir)).toEqual([`${rec.id}.jsonl`]); // the compaction was finished
    expect(await store.commit({ ...rec, seq: 3 }, 3, NO_TURN)).toEqual({ ok: true, version: 4 });
    await store.close();
    store = await openStore(dir);
    expect((await store.load(rec.id))!.seq).toBe(3);
  });

  it("writes a turn's transcript, events and record with one append at the end of the file, never rewriting it", async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    const rec = storedSession('session-1');
    await store.create(rec, NO_TURN);
    const paths = sessionPaths(dir, rec.id);
    const before = await readFile(paths.file);
    expect(await store.commit({ ...rec, seq: 2 }, 1, { transcript: [line(1), line(2)], events: [event('node_enter', 0)] })).toEqual({ ok: true, version: 2 });
    const after = await readFile(paths.file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.subarray(before.length).toString()).toBe(
      `{"t":${JSON.stringify([line(1), line(2)])}}\n{"e":${JSON.stringify({ seq: 2, events: [event('node_enter', 0)] })}}\n${deltaLine(JSON.parse(recordLine(rec)).r, { ...rec, seq: 2, version: 2 })}`,
    );
    // a commit that conflicts writes nothing, not even its turn's lines
    expect(await store.commit({ ...rec, seq: 3 }, 1, { transcript: [line(3)], events: [event('completed', 1)] })).toEqual({ ok: false, conflict: true, current: 2 });
    expect((await readFile(paths.file)).equals(after)).toBe(true);
    expect(await store.commit({ ...rec, seq: 2 }, 2, NO_TURN)).toEqual({ ok: true, version: 3 });
    expect((await readFile(paths.file, 'utf8')).slice(after.length)).toBe(deltaLine({ ...rec, seq: 2, version: 2 }, { ...rec, seq: 2, version: 3 }));
  });

  it('reads a data directory of the earlier layout (three files a session) and rewrites each session into one file when it is used', async () => {
    const dir = await tempDir();
    const rec = { ...storedSession('session-old'), seq: 2, version: 3 };
    const paths = sessionPaths(dir, rec.id);
    await mkdir(paths.dir, { recursive: true });
    await writeFile(paths.legacy.record, `${JSON.stringify({ ...rec, seq: 1, version: 2 })}\n${JSON.stringify(rec)}\n`);
    await writeFile(paths.legacy.transcript, `${JSON.stringify(line(1))}\n${JSON.stringify(line(2))}\n${JSON.stringify(line(3, 'never committed'))}\n`);
    await writeFile(paths.legacy.events, `${JSON.stringify({ seq: 2, events: [event('node_enter', 0)] })}\n`);
    await mkdir(join(dir, 'tenants'), { recursive: true });
    await writeFile(join(dir, 'tenants', 'acme-' + createHash('sha256').update('acme').digest('hex').slice(0, 12) + '.jsonl'),
      `${JSON.stringify({ id: rec.id, flowId: rec.flowId, createdAt: rec.createdAt })}\n`);
    const store = await openStore(dir);
    expect((await store.list('acme')).map((s) => s.id)).toEqual([rec.id]);
    expect(await store.load(rec.id)).toStrictEqual(rec);
    expect((await readdir(paths.dir)).sort()).toEqual([`${rec.id}.jsonl`]);
    expect((await store.transcript(rec.id)).map((e) => e.seq)).toEqual([1, 2]);
    expect(await store.events(rec.id)).toEqual([event('node_enter', 0)]);
    expect(await store.commit({ ...rec, seq: 3 }, 3, { transcript: [line(3)], events: [] })).toEqual({ ok: true, version: 4 });
    expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['line 1', 'line 2', 'line 3']);
  });

  it('reads past a line torn by a crash mid-append, and the retried entry stays intact', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    const rec = storedSession('session-1');
    await store.create(rec, NO_TURN);
    await store.commit({ ...rec, seq: 2 }, 1, { transcript: [line(1), line(2)], events: [] });
    await store.close();
    const paths = sessionPaths(dir, rec.id);
    await appendFile(paths.file, `{"t":${JSON.stringify([line(3, 'first try')])}}`.slice(0, 20)); // the crash

    store = await openStore(dir);
    expect((await store.transcript(rec.id)).map((e) => e.seq)).toEqual([1, 2]);
    await store.commit({ ...rec, seq: 3, version: 2 }, 2, { transcript: [line(3, 'retried')], events: [event('completed', 1)] });
    expect((await store.transcript(rec.id)).map((e) => [e.seq, e.text])).toEqual([
      [1, 'line 1'],
      [2, 'line 2'],
      [3, 'retried'],
    ]);
    expect(await store.events(rec.id)).toEqual([event('completed', 1)]);
  });

  it("ignores a turn whose write a crash cut inside its record line: its whole transcript and event lines do not count, and the retried turn reads once", async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    const rec = storedSession('session-1', { seq: 1 });
    await store.create(rec, { transcript: [line(1)], events: [event('node_enter', 0)] });
    await store.close();
    const paths = sessionPaths(dir, rec.id);
    // the turn's write as a crash leaves it: transcript and events whole, the record line cut
    const torn = `{"t":${JSON.stringify([line(2, 'lost')])}}\n{"e":${JSON.stringify({ seq: 2, events: [event('completed', 1)] })}}\n{"r":${JSON.stringify({ ...rec, seq: 2, version: 2 })}}`;
    await appendFile(paths.file, torn.slice(0, torn.length - 30));

    store = await openStore(dir);
    expect(await store.load(rec.id)).toStrictEqual(rec);
    expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['line 1']);
    expect(await store.events(rec.id)).toEqual([event('node_enter', 0)]);
    expect(await store.commit({ ...rec, seq: 2 }, 1, { transcript: [line(2, 'retried')], events: [event('completed', 2)] })).toEqual({ ok: true, version: 2 });
    expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['line 1', 'retried']);
    expect(await store.events(rec.id)).toEqual([event('node_enter', 0), event('completed', 2)]);
  });

  it("is a lowdb SyncAdapter: LowSync writes a turn as one append and reads back the file's current record", async () => {
    const dir = await tempDir();
    const file = join(dir, 'session.jsonl');
    const appender = new JsonlAppender(4);
    const rec = storedSession('session-1', { seq: 1 });
    const db = new LowSync<SessionDoc>(new SessionFileAdapter(appender, file), { record: rec, turn: { transcript: [line(1)], events: [event('node_enter', 0)] } });
    db.write();
    db.data = { record: { ...rec, version: 2 } };
    db.write();
    appender.reset();
    expect((await readFile(file, 'utf8')).split('\n').map((l) => Object.keys(l ? JSON.parse(l) : {})[0])).toEqual(['t', 'e', 'r', 'r', undefined]);
    const again = new LowSync<SessionDoc>(new SessionFileAdapter(new JsonlAppender(4), file), { record: rec });
    again.read();
    expect(again.data.record).toStrictEqual({ ...rec, version: 2 });
    const missing = new LowSync<SessionDoc>(new SessionFileAdapter(appender, join(dir, 'none.jsonl')), { record: rec });
    missing.read();
    expect(missing.data.record).toBe(rec); // nothing on disk: lowdb keeps the default
  });

  it('lists from the per-tenant index and skips sessions whose record never reached the disk', async () => {
    const dir = await tempDir();
    let store = await openStore(dir);
    await store.create(storedSession('session-1', { createdAt: '2026-01-15T10:01:00Z' }), NO_TURN);
    await store.create(storedSession('session-2', { createdAt: '2026-01-15T10:02:00Z' }), NO_TURN);
    await store.close();
    const index = (await readdir(join(dir, 'tenants')));
    expect(index).toHaveLength(1);
    expect(index[0]).toMatch(/^acme-[0-9a-f]{12}\.jsonl$/);
    expect((await readFile(join(dir, 'tenants', index[0]!), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { id: 'session-1', flowId: 'flow.store', createdAt: '2026-01-15T10:01:00Z' },
      { id: 'session-2', flowId: 'flow.store', createdAt: '2026-01-15T10:02:00Z' },
    ]);
    await unlink(sessionPaths(dir, 'session-2').file); // a crash between the index line and the record
    store = await openStore(dir);
    expect((await store.list('acme')).map((s) => s.id)).toEqual(['session-1']);
    expect(await store.create(storedSession('session-2', { createdAt: '2026-01-15T10:03:00Z' }), NO_TURN)).toEqual({ ok: true });
    expect((await store.list('acme')).map((s) => s.id)).toEqual(['session-2', 'session-1']);
  });

  it('refuses hostile ids without touching the file system', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    await store.create(storedSession('session-1'), NO_TURN);
    const before = await snapshot(dir);
    for (const bad of HOSTILE_IDS) {
      await expect(store.create(storedSession(bad), NO_TURN)).rejects.toThrow(/invalid session id/);
      await expect(store.commit(storedSession(bad), 1, { transcript: [line(1)], events: [] })).rejects.toThrow(/invalid session id/);
    }
    expect(await snapshot(dir)).toEqual(before);
    expect((await readdir(join(dir, '..'))).filter((f) => f.includes('passwd'))).toEqual([]);
  });

  it('stays correct when the record cache is smaller than the working set', async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { cacheSize: 2 });
    for (let n = 0; n < 6; n++) await store.create(storedSession(`session-${n}`), NO_TURN);
    for (let n = 0; n < 6; n++) expect(await store.commit({ ...storedSession(`session-${n}`), seq: n }, 1, NO_TURN)).toEqual({ ok: true, version: 2 });
    for (let n = 0; n < 6; n++) expect(await store.commit(storedSession(`session-${n}`), 1, NO_TURN)).toEqual({ ok: false, conflict: true, current: 2 });
    for (let n = 0; n < 6; n++) expect((await store.load(`session-${n}`))!.seq).toBe(n);
  });

  it('stays correct when fewer files may stay open than a turn appends to', async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { openFiles: 1 });
    for (let n = 0; n < 3; n++) await store.create(storedSession(`session-${n}`), NO_TURN);
    for (let round = 1; round <= 3; round++) {
      for (let n = 0; n < 3; n++) {
        const id = `session-${n}`;
        const turn = { transcript: [line(round, `turn ${round} of ${n}`)], events: [event('node_enter', round)] };
        expect(await store.commit({ ...storedSession(id), seq: round }, round, turn)).toEqual({ ok: true, version: round + 1 });
      }
    }
    for (let n = 0; n < 3; n++) {
      expect((await store.transcript(`session-${n}`)).map((e) => e.text)).toEqual([1, 2, 3].map((r) => `turn ${r} of ${n}`));
      expect(await store.events(`session-${n}`)).toHaveLength(3);
    }
  });

  it('keeps a quarter of the soft open-files limit open by default, between 256 and 8,192', () => {
    const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 1048576              files\n`;
    expect(defaultOpenFiles(limits('20000'))).toBe(5_000);
    expect(defaultOpenFiles(limits('1024'))).toBe(256);
    expect(defaultOpenFiles(limits('1048576'))).toBe(8_192);
    expect(defaultOpenFiles(limits('unlimited'))).toBe(8_192);
    expect(defaultOpenFiles(null)).toBe(256);
    expect(defaultOpenFiles('garbage')).toBe(256);
  });
});
