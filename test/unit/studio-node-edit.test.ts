import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { edgesFrom, editSource, minimalChange, readNode, type EditResult } from '../../client/studio/node-edit.ts';
import { compileText } from '../../server/flow/document.ts';
import { hasErrors } from '../../server/flow/diagnostic.ts';

// The node inspector's edit (client/studio/node-edit.ts): a change to one
// node or edge rewrites only the fields it touches; every other line of the
// file, comments included, stays as it was.

const YAML_FILE = 'flows/global/patient-intake.flow.yaml';
const JSON_FILE = 'flows/global/sales.flow.json';
const yamlText = readFileSync(YAML_FILE, 'utf8');
const jsonText = readFileSync(JSON_FILE, 'utf8');

const textOf = (r: EditResult) => {
  if (!r.ok) throw new Error(r.message);
  return r.text;
};

/** The lines that differ between two texts: [line numbers of a that went, lines of b that came]. */
function changedLines(a: string, b: string): { removed: string[]; added: string[]; firstLine: number; lastLine: number } {
  const la = a.split('\n');
  const lb = b.split('\n');
  let start = 0;
  while (start < la.length && start < lb.length && la[start] === lb[start]) start++;
  let ea = la.length;
  let eb = lb.length;
  while (ea > start && eb > start && la[ea - 1] === lb[eb - 1]) {
    ea--;
    eb--;
  }
  return { removed: la.slice(start, ea), added: lb.slice(start, eb), firstLine: start + 1, lastLine: ea };
}

const comments = (t: string) => t.split('\n').filter((l) => /(^|\s)#/.test(l));
const lineOf = (t: string, s: string) => t.split('\n').findIndex((l) => l.includes(s)) + 1;

describe('node inspector edits (YAML, the yaml Document API)', () => {
  it('changes a plain prompt and nothing else: one line, comments and the rest of the file kept', () => {
    const out = textOf(editSource(yamlText, { node: 'q.full_name' }, [{ path: ['prompt'], value: 'Please tell me the full legal name of the patient.' }]));
    const d = changedLines(yamlText, out);
    expect(d.removed).toEqual(["    prompt: You're checking in at our {{context.clinic_id}} clinic. What is the patient's full legal name?"]);
    expect(d.added).toEqual(['    prompt: Please tell me the full legal name of the patient.']);
    expect(comments(out)).toEqual(comments(yamlText));
    expect(readNode(out, 'q.full_name')?.prompt).toBe('Please tell me the full legal name of the patient.');
    expect(hasErrors(compileText(out, YAML_FILE).diagnostics)).toBe(false);
  });

  it('edits the answer constraints, optional and validation of one node only, the file still compiling', () => {
    const out = textOf(editSource(yamlText, { node: 'q.age' }, [
      { path: ['answer', 'max'], value: 110 },
      { path: ['answer', 'min'], value: undefined },
      { path: ['required'], value: false },
      { path: ['validate'], value: 'value >= 1' },
    ]));
    const d = changedLines(yamlText, out);
    // every changed line is inside q.age (which starts at its `- id:` line and ends before q.sex)
    expect(d.firstLine).toBeGreaterThan(lineOf(yamlText, '- id: q.age'));
    expect(d.lastLine).toBeLessThan(lineOf(yamlText, '- id: q.sex'));
    expect(d.removed).toEqual(['    answer: { type: integer, min: 0, max: 120 }', '    invalid_prompt: Please give the age as a whole number of years between 0 and 120 (for a baby under one, say 0).', '    carry: keep', '    ui: { group: identity }']);
    expect(d.added).toEqual(['    answer: { type: integer, max: 110 }', '    invalid_prompt: Please give the age as a whole number of years between 0 and 120 (for a baby under one, say 0).', '    carry: keep', '    ui: { group: identity }', '    validate: value >= 1', '    required: false']);
    expect(comments(out)).toEqual(comments(yamlText));
    const node = readNode(out, 'q.age')!;
    expect(node.answer).toEqual({ type: 'integer', max: 110 });
    expect(node.required).toBe(false);
    expect(node.validate).toBe('value >= 1');
    expect(readNode(out, 'q.sex')).toEqual(readNode(yamlText, 'q.sex'));
    expect(hasErrors(compileText(out, YAML_FILE).diagnostics)).toBe(false);
  });

  it('adds a locale to a prompt and changes the answer type with its options', () => {
    const withLocales = textOf(editSource(yamlText, { node: 'q.sex' }, [
      { path: ['prompt'], value: { en: 'What sex was the patient assigned at birth?', es: '¿Qué sexo se le asignó al paciente al nacer?' } },
    ]));
    expect(readNode(withLocales, 'q.sex')?.prompt).toEqual({ en: 'What sex was the patient assigned at birth?', es: '¿Qué sexo se le asignó al paciente al nacer?' });
    const de = textOf(editSource(withLocales, { node: 'q.sex' }, [{ path: ['prompt', 'es'], value: 'Sexo al nacer' }, { path: ['prompt', 'de'], value: 'Geschlecht bei Geburt' }]));
    expect(readNode(de, 'q.sex')?.prompt).toEqual({ en: 'What sex was the patient assigned at birth?', es: 'Sexo al nacer', de: 'Geschlecht bei Geburt' });
    const d = changedLines(yamlText, de);
    expect(d.firstLine).toBeGreaterThan(lineOf(yamlText, '- id: q.sex'));
    expect(comments(de)).toEqual(comments(yamlText));

    const typed = textOf(editSource(yamlText, { node: 'q.age' }, [{ path: ['answer'], value: { type: 'enum', options: ['child', 'adult'] } }]));
    expect(readNode(typed, 'q.age')?.answer).toEqual({ type: 'enum', options: ['child', 'adult'] });
    expect(typed).toContain('    answer: { type: enum, options: [ child, adult ] }');
  });

  it("edits an edge's target and guard, and removes a guard", () => {
    const out = edgesFrom(yamlText, 'q.full_name');
    expect(out).toEqual([{ index: 0, id: 'e.name.dob', to: 'q.date_of_birth' }]);
    const guarded = textOf(editSource(yamlText, { edge: 0 }, [{ path: ['to'], value: 'q.age' }, { path: ['guard'], value: 'answers.full_name != ""' }]));
    const d = changedLines(yamlText, guarded);
    expect(d.removed).toEqual(['  - { id: e.name.dob, from: q.full_name, to: q.date_of_birth }']);
    expect(d.added).toEqual(['  - { id: e.name.dob, from: q.full_name, to: q.age, guard: answers.full_name != "" }']);
    const back = textOf(editSource(guarded, { edge: 0 }, [{ path: ['to'], value: 'q.date_of_birth' }, { path: ['guard'], value: undefined }]));
    expect(back).toBe(yamlText);
  });

  it("keeps a field's own trailing comment once, and removes a field's whole line", () => {
    const text = [
      'nodes:',
      '  # the name',
      '  - id: q.name # first',
      '    type: question',
      "    prompt: 'Your name?'   # asked first",
      '    carry: keep # kept on back',
      '    key: name',
      '',
    ].join('\n');
    const out = textOf(editSource(text, { node: 'q.name' }, [{ path: ['prompt'], value: 'Your full name?' }, { path: ['carry'], value: undefined }]));
    expect(out).toBe([
      'nodes:',
      '  # the name',
      '  - id: q.name # first',
      '    type: question',
      "    prompt: 'Your full name?'   # asked first",
      '    key: name',
      '',
    ].join('\n'));
    const q = textOf(editSource(yamlText, { node: 'q.age' }, [{ path: ['carry'], value: undefined }]));
    expect(changedLines(yamlText, q)).toMatchObject({ removed: ['    carry: keep'], added: [] });
  });

  it('adds a top-level field after the one named (a flow\'s locales after its label)', () => {
    const out = textOf(editSource(yamlText, { root: true }, [{ path: ['locales'], value: ['en', 'es'] }], { after: ['default_locale', 'label'] }));
    expect(changedLines(yamlText, out).added).toEqual(['locales: [ en, es ]']);
    expect(out).toContain('label: Clinic patient check-in\nlocales: [ en, es ]\nentry:');
  });

  it('refuses a source that does not parse, and a node that is not there', () => {
    expect(editSource('nodes: [\n', { node: 'q.x' }, []).ok).toBe(false);
    expect(editSource(yamlText, { node: 'q.nope' }, [{ path: ['prompt'], value: 'x' }])).toEqual({ ok: false, message: "no node 'q.nope' in this file" });
  });

  it('minimalChange is the one replacement between two texts', () => {
    expect(minimalChange('abcdef', 'abXYef')).toEqual({ from: 2, to: 4, insert: 'XY' });
  });
});

describe('node inspector edits (JSON: the file keeps its layout)', () => {
  it("changes a locale of a prompt, a constraint and a validation rule; other lines stay", () => {
    const out = textOf(editSource(jsonText, { node: 'q.budget' }, [
      { path: ['prompt', 'de'], value: 'Welches Budget?' },
      { path: ['answer', 'min'], value: 100 },
    ]));
    const d = changedLines(jsonText, out);
    expect(d.firstLine).toBeGreaterThan(lineOf(jsonText, '"id": "q.budget"'));
    expect(d.added.join('\n')).toContain('"de": "Welches Budget?"');
    // the answer was written on one line without padding inside its braces: so it stays
    expect(out).toContain('"answer": {"type": "integer", "min": 100, "unit": "USD", "currency": "USD"}');
    expect(JSON.parse(out)).toBeTruthy();
    expect(hasErrors(compileText(out, JSON_FILE).diagnostics)).toBe(false);
    // the other nodes are untouched
    expect(readNode(out, 'q.email')).toEqual(readNode(jsonText, 'q.email'));
  });

  it("edits an edge and adds an optional flag", () => {
    const edges = edgesFrom(jsonText, 'q.budget');
    expect(edges.length).toBeGreaterThan(0);
    const out = textOf(editSource(jsonText, { edge: edges[0]!.index }, [{ path: ['guard'], value: 'answers.budget > 0' }]));
    expect(edgesFrom(out, 'q.budget')[0]!.guard).toBe('answers.budget > 0');
    const opt = textOf(editSource(out, { node: 'q.budget' }, [{ path: ['required'], value: false }]));
    expect(readNode(opt, 'q.budget')?.required).toBe(false);
    expect(JSON.parse(opt)).toBeTruthy();
    expect(changedLines(out, opt).removed.length).toBeLessThanOrEqual(1);
  });
});
