import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { effectiveFlow, loadLibrary } from '../../server/catalog/library.ts';
import { main } from '../../server/cli/main.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { loadRedFlagSet } from '../../server/golden/red-flag-cases.ts';
import { runRedFlags, summariseRedFlags, tryReply } from '../../server/golden/red-flag-run.ts';

// The shipped patient flow's red flags (flows/global/patient-intake.flow.yaml
// `triggers`) on the red-flag sets in test/eval/red-flags/: every emergency
// caught as the first and as the second reply of a Northside session, no
// ordinary reply raising the alarm, beyond the cases listed in known-misses.txt.

const DIR = fileURLToPath(new URL('../eval/red-flags/', import.meta.url));
const FLOWS = fileURLToPath(new URL('../../flows/', import.meta.url));
const KNOWN = readFileSync(join(DIR, 'known-misses.txt'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

const eff = effectiveFlow(loadLibrary(FLOWS), 'flow.patient_intake', 'northside-clinic');
const flow = eff.flow!;
const offline = new OfflineExtractor();

describe('red flags of the shipped patient flow (northside-clinic)', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();

  it('the blind set is at least 60 emergencies over every category the issue names, and 60 ordinary replies', () => {
    const set = loadRedFlagSet(join(DIR, 'blind-1.yaml'));
    expect(set.emergencies.length).toBeGreaterThanOrEqual(60);
    expect(set.ordinary.length).toBeGreaterThanOrEqual(60);
    expect(new Set(set.emergencies.map((c) => c.category))).toEqual(new Set(['chest_pain', 'breathing', 'stroke', 'seizure', 'unconscious', 'bleeding',
      'anaphylaxis', 'poisoning', 'self_harm', 'floppy_child', 'rash_fever']));
  });

  for (const file of files) {
    it(`${file}: every emergency caught as the first and the second reply, no ordinary reply fires (beyond known-misses.txt)`, async () => {
      const s = summariseRedFlags(file, await runRedFlags(loadRedFlagSet(join(DIR, file)), flow, () => offline));
      const wrong = [...s.missed, ...s.alarms].map((r) => `${r.id}@${r.position}`);
      const ids = new Set(s.results.map((r) => `${r.id}@${r.position}`));
      const unexpected = wrong.filter((w) => !KNOWN.includes(w));
      const fixedSoRemoveFromList = KNOWN.filter((k) => ids.has(k) && !wrong.includes(k));
      expect({ unexpected, fixedSoRemoveFromList }).toEqual({ unexpected: [], fixedSoRemoveFromList: [] });
    }, 60_000);
  }

  it('the three red flags quoted in issue 30 go to the emergency advice, first and second', async () => {
    for (const reply of ['now his lips are going a bit blue', 'my chest has been hurting and getting tighter since this morning',
      'she has a high fever and she is floppy and won\'t wake up properly']) {
      for (const position of ['first', 'second'] as const) {
        const r = await tryReply(flow, offline, reply, position);
        expect({ reply, position, trigger: r.trigger, call: /call 911/.test(r.bot) }).toEqual({ reply, position, trigger: expect.any(String), call: true });
      }
    }
  });

  it('a wish to die gets the crisis line (988) as well as the emergency number, and the staff are alerted', async () => {
    const r = await tryReply(flow, offline, 'i dont want to be alive anymore', 'second');
    expect(r.trigger).toBe('crisis');
    expect(r.bot).toMatch(/988/);
    expect(r.bot).toMatch(/911/);
    // indirect phrasings go to the crisis advice too, not only to the emergency one
    for (const reply of ["I've been thinking about ending it", 'I wish I was dead', 'some days I dont want to wake up', 'no point in living']) {
      expect((await tryReply(flow, offline, reply, 'first')).trigger, reply).toBe('crisis');
    }
  });

  it('each red flag names what it is for the operator (its own trigger), negation and past events do not fire', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['his face has dropped on one side', 'stroke'],
      ['she is fitting', 'seizure'],
      ['he drank some antifreeze', 'poisoning'],
      ['there is blood everywhere and it won\'t stop', 'bleeding'],
      ['her lips are swelling up', 'allergy'],
      ['my baby is floppy', 'sick_child'],
      ['a rash that doesn\'t fade under a glass and a fever', 'rash_fever'],
      ['we can\'t wake him', 'unconscious'],
      ['not struggling to breathe, just a cold', undefined],
      ['her lips are not blue', undefined],
      ['he had a seizure when he was two, here for his jabs', undefined],
      ['my mum died of a heart attack, I want a check-up', undefined],
    ];
    for (const [reply, trigger] of cases) expect({ reply, trigger: (await tryReply(flow, offline, reply, 'first')).trigger }).toEqual({ reply, trigger });
  });
});

describe('questline eval --red-flags', () => {
  const run = (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    return main(args, { out: (t) => void out.push(t), err: (t) => void err.push(t) }).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
  };
  const dir = mkdtempSync(join(tmpdir(), 'questline-red-flags-'));

  it('prints caught of N as the first and the second reply and the false alarms; exit 1 when one is missed or fires', async () => {
    const file = join(dir, 'tiny.yaml');
    writeFileSync(file, `emergencies:
  - { id: e1, reply: "crushing chest pain", category: chest_pain }
  - { id: e2, reply: "my cat is unwell", category: not_a_red_flag }
ordinary:
  - { id: o1, reply: "annual physical" }
  - { id: o2, reply: "my chest hurts", note: "mislabelled on purpose: it fires" }
`);
    const r = await run(['eval', file, '--red-flags', '--tenant', 'northside-clinic', '--flows', FLOWS, '--json']);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.out);
    expect({ emergencies: s.emergencies, ordinary: s.ordinary, caught: s.caught, falseAlarms: s.falseAlarms }).toEqual({
      emergencies: 2, ordinary: 2, caught: { first: 1, second: 1 }, falseAlarms: { first: 1, second: 1 },
    });
    expect(s.missed.map((m: { id: string; position: string }) => `${m.id}@${m.position}`)).toEqual(['e2@first', 'e2@second']);
    const text = await run(['eval', file, '--red-flags', '--tenant', 'northside-clinic', '--flows', FLOWS]);
    expect(text.out).toMatch(/caught as the first reply: {2}1 of 2/);
    expect(text.out).toMatch(/false alarms: 2 of 4/);
  });

  it('takes a folder of sets: the shipped ones, every emergency caught and no false alarm (exit 0)', async () => {
    const r = await run(['eval', DIR, '--red-flags', '--tenant', 'northside-clinic', '--flows', FLOWS, '--json']);
    const s = JSON.parse(r.out);
    // blind-1 to blind-14, implementer-1 to implementer-13, lead-8 (1906 emergencies, blind-8 77 of them, blind-9 70, blind-10 66, blind-11 66, blind-12 66, blind-13 66, blind-14 99, implementer-11 18, implementer-12 81, implementer-13 82): all
    // caught, as the first and the second reply, but those listed in known-misses.txt (exit 1 while any is missed)
    const wrong = [...s.missed, ...s.alarms].map((m: { id: string; position: string }) => `${m.id}@${m.position}`).sort();
    expect({ code: r.code, emergencies: s.emergencies, wrong }).toEqual({ code: wrong.length ? 1 : 0, emergencies: 1906, wrong: [...KNOWN].sort() });
  }, 120_000); // every set through the CLI: ~8 s of CPU, far longer on a loaded machine

  it('exit 0 when all are right; a file that is not a red-flag set is a usage error', async () => {
    const good = join(dir, 'good.yaml');
    writeFileSync(good, 'emergencies:\n  - { id: e1, reply: "he is not breathing", category: breathing }\nordinary:\n  - { id: o1, reply: "flu shot" }\n');
    expect((await run(['eval', good, '--red-flags', '--flows', FLOWS])).code).toBe(0);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'cases: []\n');
    const r = await run(['eval', bad, '--red-flags', '--flows', FLOWS]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/emergencies/);
  });
});
