// The Studio (issue 34), bundled as /studio.js for /studio.
//
// A source file under FLOWS_DIR in CodeMirror (YAML or JSON, completion and
// hover from the flow JSON Schema), checked by the server as it is typed
// (POST /check, debounced: the compiler's diagnostics underlined), the graph
// of the draft beside it (the console's FlowMap: click a node to select its
// source, move the cursor to highlight its node), a node inspector, a preview
// chat with the real widget on the draft, goldens, publish, the revisions
// with a diff, and rollback. Text from the server is always set as text.

import { EditorView, minimalSetup } from 'codemirror';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { lineNumbers, highlightActiveLine, highlightActiveLineGutter } from '@codemirror/view';
import { bracketMatching, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { Compartment, EditorSelection } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { json } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { yamlCompletion, yamlSchemaHover } from 'codemirror-json-schema/yaml';
import { jsonCompletion, jsonSchemaHover, stateExtensions } from 'codemirror-json-schema';
import { yaml, yamlLanguage } from '@codemirror/lang-yaml';
import { jsonLanguage } from '@codemirror/lang-json';
import { hoverTooltip } from '@codemirror/view';
import { diffLines } from 'diff';
import { isMap, isScalar, isSeq, parse as parseYaml, parseDocument, type Node as YamlNode } from 'yaml';
import { edgesFrom, editSource, flowLocale, flowLocales, isJsonSource, minimalChange, nodeIds, readNode, type FieldChange, type NodeEdge } from './node-edit.ts';
import type { JSONSchema7 } from 'json-schema';
import { FlowMap } from '../admin/flow-map.ts';
import { mountPathOf } from '../widget/mount-base.ts';
import type { GraphLayout } from '../admin/types.ts';

const BASE = mountPathOf(document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : undefined, 'studio.js');
const KEY_STORAGE = 'questline.adminKey';
const NONCE = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

interface SourceInfo { path: string; kind: 'global' | 'pack' | 'tenant'; flows: Array<{ tenant: string; flow: string }> }
interface WireDiagnostic { line: number; col: number; code: string; message: string; severity: 'error' | 'warning'; file?: string }
interface CheckResponse {
  ok: boolean; diagnostics: WireDiagnostic[]; graph: GraphLayout | null;
  flows: Array<{ tenant: string; flow: string; revision: string | null }>;
  report: { changes: Array<{ layer?: string; op?: string; target?: string; path?: string; detail?: string }>; conflicts: unknown[] } | null;
}
interface Revision { tenant: string; flow: string; revision: string; publishedAt: string; by: string; note: string | null; current: boolean; kind: string; path: string; seq: number; text?: string }

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} is missing from the page`);
  return e as T;
};

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string | null>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null) e.append(c);
  return e;
}

const ui = {
  connection: $('connection'), signOut: $<HTMLButtonElement>('sign-out'), signIn: $('sign-in'), signInForm: $<HTMLFormElement>('sign-in-form'),
  keyInput: $<HTMLInputElement>('admin-key'), signInError: $('sign-in-error'), studio: $('studio'),
  source: $<HTMLSelectElement>('source-select'), sourceFlows: $('source-flows'), editor: $('editor'), checkStatus: $('check-status'),
  diagnostics: $('diagnostics'), publishForm: $<HTMLFormElement>('publish-form'), note: $<HTMLInputElement>('publish-note'),
  publish: $<HTMLButtonElement>('publish'), publishStatus: $('publish-status'), reportBox: $<HTMLDetailsElement>('report-box'), report: $('report'),
  map: $('map'), graphCaption: $('graph-caption'), zoomIn: $('zoom-in'), zoomOut: $('zoom-out'), zoomFit: $('zoom-fit'),
  inspector: $<HTMLFormElement>('inspector'), inspectorEmpty: $('inspector-empty'), inspectorId: $('inspector-id'),
  previewStart: $<HTMLButtonElement>('preview-start'), previewStatus: $('preview-status'), preview: $('preview'), trace: $('trace'),
  goldenSave: $<HTMLButtonElement>('golden-save'), goldensRun: $<HTMLButtonElement>('goldens-run'), goldenStatus: $('golden-status'),
  revisionsFlow: $<HTMLSelectElement>('revisions-flow'), revisions: $('revisions'), diff: $('diff'),
};

let key = sessionStorage.getItem(KEY_STORAGE) ?? '';
let sources: SourceInfo[] = [];
let current: { path: string; version: string } | null = null;
let lastCheck: CheckResponse | null = null;
let selected: string | null = null;
let preview: { sessionId: string; token: string; tenant: string; flow: string; key: string } | null = null;
const map = new FlowMap(ui.map);

/** One admin API call; the body comes back whatever the status (a 422 carries diagnostics). */
async function call<T = any>(path: string, body?: unknown): Promise<{ status: number; body: T }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${BASE}/api/v1/admin${path}`, {
    method: body === undefined ? 'GET' : 'POST', cache: 'no-store', credentials: 'omit',
    headers: { 'X-Questline-Admin': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

const errorText = (b: { error?: { message?: string } } | null, status: number) => b?.error?.message ?? `HTTP ${status}`;

// --- the editor ---------------------------------------------------------

const language = new Compartment();
const schemaExt = new Compartment();
let schema: JSONSchema7 | undefined;

/** A completion source asked only on Ctrl+Space: the schema's completions cost too much for every keystroke. */
const onRequest = <C extends { explicit: boolean }, R>(source: (ctx: C) => R) => (ctx: C): R | null => (ctx.explicit ? source(ctx) : null);

function languageFor(path: string) {
  if (/\.json$/i.test(path)) {
    return [json(), jsonLanguage.data.of({ autocomplete: onRequest(jsonCompletion()) }), hoverTooltip(jsonSchemaHover())];
  }
  return [yaml(), yamlLanguage.data.of({ autocomplete: onRequest(yamlCompletion()) }), hoverTooltip(yamlSchemaHover())];
}

/** Offset of a 1-based line and column in the editor's text. */
function offsetOf(view: EditorView, line: number, col: number): number {
  const l = view.state.doc.line(Math.min(Math.max(1, line), view.state.doc.lines));
  return Math.min(l.from + Math.max(0, col - 1), l.to);
}

const checkLinter = linter(async (view): Promise<CmDiagnostic[]> => {
  if (!current) return [];
  const path = current.path;
  const text = view.state.doc.toString();
  ui.checkStatus.textContent = 'Checking…';
  let res: { status: number; body: CheckResponse };
  try {
    res = await call<CheckResponse>('/check', { path, text });
  } catch {
    ui.checkStatus.textContent = 'The server cannot be reached.';
    return [];
  }
  if (res.status !== 200 || view.state.doc.toString() !== text || current?.path !== path) return [];
  showCheck(res.body);
  return res.body.diagnostics.filter((d) => !d.file || d.file === path).map((d) => {
    let from = offsetOf(view, d.line, d.col);
    const line = view.state.doc.lineAt(from);
    const word = view.state.wordAt(from);
    let to = word && word.to > from ? word.to : Math.min(line.to, from + 1);
    if (to <= from) {
      // at the end of the line (an expression cut short): underline the last thing written on it
      const text = line.text.replace(/\s+$/, '');
      to = line.from + text.length;
      from = line.from + Math.max(text.lastIndexOf(' ') + 1, 0);
    }
    return { from, to: Math.max(to, from), severity: d.severity, message: `${d.message} [${d.code}]`, source: 'questline' };
  });
}, { delay: 400 });

const view = new EditorView({
  parent: ui.editor,
  extensions: [
    // basicSetup without completion while typing: the schema's completions are computed on Ctrl+Space only (a keystroke stays cheap)
    minimalSetup, lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), foldGutter(), indentOnInput(), bracketMatching(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }), highlightSelectionMatches(), autocompletion({ activateOnTyping: false }),
    keymap.of([...searchKeymap, ...foldKeymap, ...completionKeymap]),
    EditorView.cspNonce.of(NONCE), language.of([]), schemaExt.of([]), lintGutter(), checkLinter,
    EditorView.contentAttributes.of({ 'aria-label': 'Flow source', 'aria-describedby': 'editor-help', tabindex: '0' }),
    keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => { ui.publishForm.requestSubmit(); return true; } }]),
    EditorView.updateListener.of((u) => {
      if (u.selectionSet || u.docChanged) followCursor();
    }),
  ],
});

// --- node ↔ source --------------------------------------------------------

/** Every map with a scalar `id` in the source, by id: [start, end] offsets, and the map. */
function nodeRanges(text: string): Map<string, { from: number; to: number; node: YamlNode }> {
  const out = new Map<string, { from: number; to: number; node: YamlNode }>();
  let doc;
  try {
    doc = parseDocument(text, { keepSourceTokens: false });
  } catch {
    return out;
  }
  const walk = (n: unknown) => {
    if (isMap(n)) {
      const id = n.get('id', true);
      if (isScalar(id) && typeof id.value === 'string' && n.range && !out.has(id.value)) out.set(id.value, { from: n.range[0], to: n.range[2], node: n as YamlNode });
      for (const p of n.items) walk(p.value);
    } else if (isSeq(n)) for (const i of n.items) walk(i);
  };
  walk(doc.contents);
  return out;
}

let following = false;
/** The node whose source holds the cursor is highlighted on the graph. */
function followCursor(): void {
  if (following || !lastCheck?.graph) return;
  const at = view.state.selection.main.head;
  const ids = new Set(lastCheck.graph.nodes.map((n) => n.id));
  let best: { id: string; size: number } | null = null;
  for (const [id, r] of nodeRanges(view.state.doc.toString())) {
    if (ids.has(id) && at >= r.from && at <= r.to && (!best || r.to - r.from < best.size)) best = { id, size: r.to - r.from };
  }
  if ((best?.id ?? null) !== selected) {
    selected = best?.id ?? null;
    map.select(selected);
    inspect(selected);
  }
}

/** A node picked on the graph: its source is selected in the editor. */
function pickNode(id: string): void {
  const r = nodeRanges(view.state.doc.toString()).get(id);
  selected = id;
  map.select(id);
  inspect(id);
  if (!r) {
    ui.graphCaption.textContent = `${id} is not written in this file (it comes from another layer).`;
    return;
  }
  following = true;
  view.dispatch({ selection: EditorSelection.single(r.from, r.from), effects: EditorView.scrollIntoView(r.from, { y: 'start' }) });
  following = false;
  ui.graphCaption.textContent = `Selected ${id} (line ${view.state.doc.lineAt(r.from).number}).`;
}

// --- the node inspector ------------------------------------------------------
//
// Prompt and its languages, answer type and constraints, optional, validation
// rules, and the node's edges (target, guard): "Apply" turns the form into
// field changes and editSource rewrites only those fields (node-edit.ts), so
// comments and the rest of the file stay as written. The editor gets one change.

const ANSWER_FIELDS: Record<string, Array<'min' | 'max' | 'unit' | 'options'>> = {
  text: ['min', 'max'], number: ['min', 'max', 'unit'], integer: ['min', 'max', 'unit'], date: ['min', 'max'], enum: ['options'],
  boolean: [], email: [], phone: [], url: [],
};
interface Inspected {
  id: string;
  node: Record<string, unknown>;
  edges: NodeEdge[];
  prompts: Array<{ locale: string | null; input: HTMLTextAreaElement }>;
  rules: Array<{ index: number | null; expr: HTMLInputElement; message: HTMLInputElement | null }>;
  edgeRows: Array<{ edge: NodeEdge; to: HTMLSelectElement; guard: HTMLInputElement }>;
}
let inspected: Inspected | null = null;
const ix = {
  prompts: $('inspector-prompts'), locale: $<HTMLInputElement>('inspector-locale'), addLocale: $<HTMLButtonElement>('inspector-add-locale'),
  promptsBox: $('inspector-prompts-box'), answerBox: $('inspector-answer-box'), type: $<HTMLSelectElement>('inspector-type'),
  min: $<HTMLInputElement>('inspector-min'), max: $<HTMLInputElement>('inspector-max'), unit: $<HTMLInputElement>('inspector-unit'),
  minLabel: $('inspector-min-label'), maxLabel: $('inspector-max-label'),
  options: $<HTMLInputElement>('inspector-options'), optionsHelp: $('inspector-options-help'), optional: $<HTMLInputElement>('inspector-optional'),
  validateBox: $('inspector-validate-box'), validate: $('inspector-validate'), addRule: $<HTMLButtonElement>('inspector-add-rule'),
  edges: $('inspector-edges'), status: $('inspector-status'),
};

const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const answerOf = (n: Record<string, unknown>) => (typeof n.answer === 'object' && n.answer !== null ? n.answer as Record<string, unknown> : { type: 'text' });
const plainOptions = (a: Record<string, unknown>) => Array.isArray(a.options) && a.options.every((o) => typeof o === 'string');

function promptRow(locale: string | null, value: string): HTMLElement {
  const id = locale ? `inspector-prompt-${locale}` : 'inspector-prompt';
  const input = h('textarea', { id, rows: '2' });
  input.value = value;
  inspected?.prompts.push({ locale, input });
  return h('div', { class: 'inspector-row' }, h('label', { for: id }, locale ? `Prompt (${locale})` : 'Prompt'), input);
}

function ruleRow(index: number | null, expr: string, message: string | null, n: number): HTMLElement {
  const e = h('input', { id: `inspector-rule-${n}`, type: 'text', placeholder: 'value > 0' });
  e.value = expr;
  const m = message === null ? null : h('input', { id: `inspector-rule-${n}-message`, type: 'text', placeholder: 'what the visitor is told' });
  if (m && message !== null) m.value = message;
  inspected?.rules.push({ index, expr: e, message: m });
  return h('div', { class: 'inspector-row' }, h('label', { for: e.id }, `Rule ${n + 1} (guard on value)`), e,
    ...(m ? [h('label', { for: m.id }, `Rule ${n + 1} message`), m] : []));
}

/** Shows the answer fields the chosen type takes. */
function showAnswerFields(): void {
  const fields = ANSWER_FIELDS[ix.type.value] ?? [];
  for (const [f, input] of [['min', ix.min], ['max', ix.max], ['unit', ix.unit], ['options', ix.options]] as const) {
    const show = fields.includes(f);
    input.hidden = !show;
    (input.previousElementSibling as HTMLElement).hidden = !show;
  }
  const what = ix.type.value === 'text' ? ' (characters)' : ix.type.value === 'date' ? ' (YYYY-MM-DD)' : '';
  ix.minLabel.textContent = `Min${what}`;
  ix.maxLabel.textContent = `Max${what}`;
}
ix.type.addEventListener('change', showAnswerFields);

/** The inspector: the selected node's fields and edges, read from the source. */
function inspect(id: string | null): void {
  const text = view.state.doc.toString();
  const node = id ? readNode(text, id) : undefined;
  ui.inspector.hidden = !node;
  ui.inspectorEmpty.hidden = Boolean(node);
  ix.status.textContent = '';
  if (!id || !node) {
    inspected = null;
    return;
  }
  inspected = { id, node, edges: edgesFrom(text, id), prompts: [], rules: [], edgeRows: [] };
  const type = typeof node.type === 'string' ? node.type : '';
  ui.inspectorId.textContent = `Node ${id}${type ? ` (${type})` : ''}`;
  // prompt: one text, or one per language; variants (a list) are edited in the source
  const p = node.prompt;
  const promptEditable = p === undefined || typeof p === 'string' || (typeof p === 'object' && p !== null && !Array.isArray(p) && Object.values(p).every((v) => typeof v === 'string'));
  ix.promptsBox.hidden = type !== 'question' && p === undefined;
  ix.prompts.replaceChildren(...(!promptEditable
    ? [h('p', { class: 'muted' }, 'This prompt has variants (a list): edit it in the source.')]
    : typeof p === 'object' && p !== null ? Object.entries(p as Record<string, string>).map(([loc, v]) => promptRow(loc, v)) : [promptRow(null, str(p))]));
  ix.locale.disabled = ix.addLocale.disabled = !promptEditable;
  // answer: a question's type and constraints, and whether it may be skipped
  ix.answerBox.hidden = type !== 'question';
  const a = answerOf(node);
  ix.type.value = str(a.type) || 'text';
  ix.min.value = str(a.min);
  ix.max.value = str(a.max);
  ix.unit.value = str(a.unit);
  ix.options.disabled = !plainOptions(a) && Array.isArray(a.options);
  ix.options.value = Array.isArray(a.options) ? a.options.map((o) => (typeof o === 'string' ? o : str((o as { value?: unknown }).value))).join(', ') : '';
  ix.optionsHelp.textContent = ix.options.disabled ? 'These choices have labels or synonyms: edit them in the source.' : '';
  ix.optional.checked = node.required === false;
  showAnswerFields();
  // validation: a guard, or a list of rules (a named validator is edited in the source)
  ix.validateBox.hidden = type !== 'question';
  const v = node.validate;
  const rows: HTMLElement[] = [];
  if (typeof v === 'string') rows.push(ruleRow(null, v, null, 0));
  else if (Array.isArray(v)) {
    v.forEach((r, i) => {
      if (typeof r === 'string') rows.push(ruleRow(i, r, null, i));
      else if (r && typeof r === 'object' && 'expr' in r && (r.message === undefined || typeof r.message === 'string')) rows.push(ruleRow(i, str(r.expr), str(r.message), i));
      else rows.push(h('p', { class: 'muted' }, `Rule ${i + 1}: ${'name' in (r ?? {}) ? `validator ${str((r as { name: unknown }).name)}` : 'texts per language'} (edit it in the source).`));
    });
  }
  ix.validate.replaceChildren(...rows);
  // edges: target and guard of each edge leaving the node (the flow's top-level edges)
  const targets = [...nodeIds(text), ...(lastCheck?.graph?.nodes.map((n) => n.id) ?? [])];
  ix.edges.replaceChildren(...(inspected.edges.length ? inspected.edges.map((e, i) => {
    const to = h('select', { id: `inspector-edge-${i}-to` });
    to.replaceChildren(...[...new Set([e.to, ...targets])].map((t) => h('option', { value: t }, t)));
    to.value = e.to;
    const guard = h('input', { id: `inspector-edge-${i}-guard`, type: 'text', placeholder: 'always (no guard)' });
    guard.value = e.guard ?? '';
    inspected!.edgeRows.push({ edge: e, to, guard });
    const name = e.id ?? `#${e.index + 1}`;
    return h('div', { class: 'inspector-row' },
      h('label', { for: to.id }, `Edge ${name}${e.on ? ` (on ${e.on})` : ''} goes to`), to,
      h('label', { for: guard.id }, `Edge ${name} guard`), guard);
  }) : [h('p', { class: 'muted' }, 'No edge in this file leaves this node.')]));
}

ix.addLocale.addEventListener('click', () => {
  if (!inspected) return;
  const loc = ix.locale.value.trim();
  if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(loc)) {
    ix.status.textContent = 'A language is a tag such as "de" or "pt-BR".';
    return;
  }
  if (inspected.prompts.some((p) => p.locale === loc)) return;
  const plain = inspected.prompts.find((p) => p.locale === null);
  if (plain) {
    // the plain text becomes the flow's default language's
    const base = flowLocale(view.state.doc.toString());
    const text = plain.input.value;
    inspected.prompts = [];
    ix.prompts.replaceChildren(promptRow(base, text));
  }
  ix.prompts.append(promptRow(loc, ''));
  ix.locale.value = '';
  document.getElementById(`inspector-prompt-${loc}`)?.focus();
});

ix.addRule.addEventListener('click', () => {
  if (!inspected) return;
  const n = inspected.rules.length;
  ix.validate.append(ruleRow(null, '', '', n));
  document.getElementById(`inspector-rule-${n}`)?.focus();
});

const numberOr = (type: string, v: string): number | string => (type === 'date' ? v : Number(v));

/** The field changes the inspector's form asks for (only what differs from the source). */
function nodeChanges(s: Inspected): FieldChange[] | string {
  const out: FieldChange[] = [];
  const n = s.node;
  // prompt
  if (s.prompts.length === 1 && s.prompts[0]!.locale === null) {
    const v = s.prompts[0]!.input.value;
    if (v !== str(n.prompt) && v.trim()) out.push({ path: ['prompt'], value: v });
  } else if (s.prompts.length) {
    const was = typeof n.prompt === 'object' && n.prompt !== null ? n.prompt as Record<string, string> : null;
    if (!was) out.push({ path: ['prompt'], value: Object.fromEntries(s.prompts.filter((p) => p.input.value.trim()).map((p) => [p.locale!, p.input.value])) });
    else for (const p of s.prompts) if (p.input.value.trim() && p.input.value !== was[p.locale!]) out.push({ path: ['prompt', p.locale!], value: p.input.value });
  }
  if (n.type === 'question') {
    // answer
    const a = answerOf(n);
    const type = ix.type.value;
    const fields = ANSWER_FIELDS[type] ?? [];
    const want: Record<string, unknown> = { type };
    for (const f of ['min', 'max'] as const) {
      const raw = (f === 'min' ? ix.min : ix.max).value.trim();
      if (!fields.includes(f) || !raw) continue;
      const v = numberOr(type, raw);
      if (typeof v === 'number' && !Number.isFinite(v)) return `${f} must be a number`;
      want[f] = v;
    }
    if (fields.includes('unit') && ix.unit.value.trim()) want.unit = ix.unit.value.trim();
    if (fields.includes('options') && !ix.options.disabled) {
      const opts = ix.options.value.split(',').map((o) => o.trim()).filter(Boolean);
      if (type === 'enum' && opts.length === 0) return 'an enum answer needs at least one choice';
      want.options = opts;
    }
    if (type !== str(a.type || 'text')) {
      // another type takes other constraints: the answer is written anew (enum choices with labels are kept)
      if (type === 'enum' && ix.options.disabled) want.options = a.options;
      out.push({ path: ['answer'], value: want });
    } else {
      for (const f of ['min', 'max', 'unit', 'options'] as const) {
        if (!fields.includes(f) || (f === 'options' && ix.options.disabled)) continue;
        if (JSON.stringify(want[f]) !== JSON.stringify(a[f])) out.push({ path: ['answer', f], value: want[f] });
      }
      if (n.answer === undefined && out.some((c) => c.path[0] === 'answer')) {
        // no answer written yet (text by default): write the whole answer
        for (let i = out.length - 1; i >= 0; i--) if (out[i]!.path[0] === 'answer') out.splice(i, 1);
        out.push({ path: ['answer'], value: want });
      }
    }
    // optional
    if (ix.optional.checked && n.required !== false) out.push({ path: ['required'], value: false });
    if (!ix.optional.checked && n.required === false) out.push({ path: ['required'], value: undefined });
    // validation rules
    const v = n.validate;
    const rules = s.rules.map((r) => ({ index: r.index, expr: r.expr.value.trim(), message: r.message?.value.trim() ?? '' }));
    if (typeof v === 'string' || v === undefined) {
      const given = rules.filter((r) => r.expr);
      const value = given.length === 0 ? undefined : given.length === 1 && !given[0]!.message ? given[0]!.expr : given.map((r) => (r.message ? { expr: r.expr, message: r.message } : r.expr));
      if (JSON.stringify(value) !== JSON.stringify(v)) out.push({ path: ['validate'], value });
    } else if (Array.isArray(v)) {
      const removed = rules.filter((r) => r.index !== null && !r.expr);
      const added = rules.filter((r) => r.index === null && r.expr);
      if (removed.length) {
        const keep = v.filter((_, i) => !removed.some((r) => r.index === i));
        out.push({ path: ['validate'], value: [...keep, ...added.map((r) => (r.message ? { expr: r.expr, message: r.message } : r.expr))] });
      } else {
        for (const r of rules) {
          if (r.index === null) continue;
          const was = v[r.index] as unknown;
          if (typeof was === 'string') {
            if (r.expr !== was) out.push({ path: ['validate', r.index], value: r.expr });
          } else if (was && typeof was === 'object') {
            const w = was as { expr?: string; message?: string };
            if (r.expr !== w.expr) out.push({ path: ['validate', r.index, 'expr'], value: r.expr });
            if (r.message !== (w.message ?? '')) out.push({ path: ['validate', r.index, 'message'], value: r.message || undefined });
          }
        }
        added.forEach((r, i) => out.push({ path: ['validate', v.length + i], value: r.message ? { expr: r.expr, message: r.message } : r.expr }));
      }
    }
  }
  return out;
}

ui.inspector.addEventListener('submit', (e) => {
  e.preventDefault();
  const s = inspected;
  if (!s) return;
  const before = view.state.doc.toString();
  const changes = nodeChanges(s);
  if (typeof changes === 'string') {
    ix.status.className = 'action-status';
    ix.status.textContent = `Not applied: ${changes}.`;
    return;
  }
  let text = before;
  const fail = (m: string) => {
    ix.status.className = 'action-status';
    ix.status.textContent = `Not applied: ${m}.`;
  };
  if (changes.length) {
    const r = editSource(text, { node: s.id }, changes);
    if (!r.ok) return fail(r.message);
    text = r.text;
  }
  // a language the flow does not declare yet is added to its `locales` (a flow with none gets its default and the new ones)
  const used = s.prompts.flatMap((p) => (p.locale && p.input.value.trim() ? [p.locale] : []));
  const declared = flowLocales(text);
  if (used.length && !declared.overlay) {
    const have = declared.locales ?? [flowLocale(text)];
    const missing = used.filter((l) => !have.includes(l));
    if (missing.length || !declared.locales) {
      const r = editSource(text, { root: true }, [{ path: ['locales'], value: [...have, ...missing] }], { after: ['default_locale', 'label', 'id'] });
      if (!r.ok) return fail(r.message);
      text = r.text;
      changes.push({ path: ['locales'], value: null });
    }
  }
  let edited = 0;
  for (const row of s.edgeRows) {
    const cs: FieldChange[] = [];
    if (row.to.value !== row.edge.to) cs.push({ path: ['to'], value: row.to.value });
    const guard = row.guard.value.trim();
    if (guard !== (row.edge.guard ?? '')) cs.push({ path: ['guard'], value: guard || undefined });
    if (!cs.length) continue;
    // the edge's place in the list is the same in the edited text (a node edit does not move edges)
    const r = editSource(text, { edge: row.edge.index }, cs);
    if (!r.ok) return fail(r.message);
    text = r.text;
    edited++;
  }
  if (text === before) {
    ix.status.textContent = 'Nothing to apply: the form is what the source says.';
    return;
  }
  view.dispatch({ changes: minimalChange(before, text) });
  const what = [...new Set(changes.map((c) => String(c.path[0])))];
  appliedNote = `${what.includes('prompt') && what.length === 1 && !edited ? 'Prompt' : 'Node'} of ${s.id} changed in the source.`;
  ui.graphCaption.textContent = appliedNote;
  inspect(s.id);
  ix.status.className = 'action-status ok';
  ix.status.textContent = `Applied: ${[...what, ...(edited ? [`${edited} edge${edited > 1 ? 's' : ''}`] : [])].join(', ')}. The check runs on the new text.`;
});

// --- checking, graph, report --------------------------------------------

/** What the last inspector edit changed, said again with the summary of the check that follows it. */
let appliedNote = '';

function showCheck(res: CheckResponse): void {
  lastCheck = res;
  const errors = res.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = res.diagnostics.length - errors;
  ui.checkStatus.textContent = errors ? `${errors} error${errors > 1 ? 's' : ''}, ${warnings} warning${warnings === 1 ? '' : 's'}: cannot publish yet.` : `No errors${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}: ready to publish.`;
  ui.checkStatus.className = `check-status ${errors ? 'bad' : 'ok'}`;
  ui.publish.disabled = errors > 0;
  ui.diagnostics.replaceChildren(...res.diagnostics.map((d) => {
    const where = `${d.file && d.file !== current?.path ? `${d.file}:` : ''}${d.line}:${d.col}`;
    const b = h('button', { type: 'button' }, `${where} ${d.severity}: ${d.message}`);
    if (!d.file || d.file === current?.path) {
      b.addEventListener('click', () => {
        const at = offsetOf(view, d.line, d.col);
        view.dispatch({ selection: EditorSelection.single(at), effects: EditorView.scrollIntoView(at, { y: 'center' }) });
        view.focus();
      });
    }
    return h('li', { class: d.severity }, b);
  }));
  if (res.graph) {
    const drawn = `${res.graph.flow.id}@${res.graph.flow.revision}`;
    if (map.drawn !== drawn) {
      map.draw(res.graph);
      map.select(selected);
    }
    // the check that follows an edit keeps the edit's note in front of the summary, so it is not lost to a screen reader
    const summary = `${res.graph.flow.label ?? res.graph.flow.id}: ${res.graph.nodes.length} nodes, revision ${res.graph.flow.revision} of the draft${res.flows[0] ? ` as ${res.flows[0].tenant} serves it` : ''}.`;
    ui.graphCaption.textContent = appliedNote ? `${appliedNote} ${summary}` : summary;
    appliedNote = '';
  } else if (errors) ui.graphCaption.textContent = 'The graph shows the last draft that compiled.';
  ui.reportBox.hidden = !res.report;
  if (res.report) {
    ui.report.replaceChildren(...(res.report.changes.length ? res.report.changes : [{ detail: 'no changes' }]).map((c) =>
      h('li', {}, [c.layer, c.op, c.target ?? c.path, c.detail].filter(Boolean).join(' · '))));
  }
}

// --- sources ------------------------------------------------------------

async function loadSources(): Promise<void> {
  const res = await call<SourceInfo[]>('/sources');
  if (res.status !== 200) throw new Error(errorText(res.body as never, res.status));
  sources = res.body;
  ui.source.replaceChildren(...sources.map((s) => h('option', { value: s.path }, `${s.path} (${s.kind})`)));
  const wanted = new URLSearchParams(location.search).get('path');
  const first = sources.find((s) => s.path === wanted) ?? sources.find((s) => s.flows.length > 0) ?? sources[0];
  if (first) {
    ui.source.value = first.path;
    await openSource(first.path);
  }
}

async function openSource(path: string): Promise<void> {
  const res = await call<{ path: string; text: string; version: string }>(`/sources/${path.split('/').map(encodeURIComponent).join('/')}`);
  if (res.status !== 200) {
    ui.publishStatus.textContent = errorText(res.body as never, res.status);
    return;
  }
  current = { path, version: res.body.version };
  selected = null;
  map.clear();
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: res.body.text },
    effects: [language.reconfigure(languageFor(path)), schemaExt.reconfigure(schema ? stateExtensions(schema) : [])],
  });
  const info = sources.find((s) => s.path === path);
  ui.sourceFlows.textContent = info?.flows.length ? `Feeds: ${info.flows.map((f) => `${f.tenant} / ${f.flow}`).join(', ')}` : 'No tenant offers this flow yet.';
  ui.revisionsFlow.replaceChildren(...(info?.flows ?? []).map((f) => h('option', { value: `${f.tenant}|${f.flow}` }, `${f.tenant} / ${f.flow}`)));
  ui.publishStatus.textContent = '';
  await loadRevisions();
}

ui.source.addEventListener('change', () => void openSource(ui.source.value));

// --- publish, revisions, rollback -----------------------------------------

ui.publishForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  if (!current) return;
  ui.publishStatus.className = 'action-status';
  ui.publishStatus.textContent = 'Publishing…';
  const res = await call<{ revisions?: Array<{ tenant: string; flow: string; revision: string }>; error?: { message: string }; diagnostics?: WireDiagnostic[] }>('/publish',
    { path: current.path, text: view.state.doc.toString(), version: current.version, ...(ui.note.value.trim() ? { note: ui.note.value.trim() } : {}) });
  if (res.status === 201) {
    ui.publishStatus.className = 'action-status ok';
    ui.publishStatus.textContent = `Published: ${res.body.revisions!.map((r) => `${r.tenant} / ${r.flow} now serves revision ${r.revision}`).join('; ') || 'no tenant serves this file'}. New conversations use it now; running ones keep theirs.`;
    ui.note.value = '';
    const fresh = await call<{ version: string }>(`/sources/${current.path.split('/').map(encodeURIComponent).join('/')}`);
    if (fresh.status === 200) current.version = fresh.body.version;
    await loadRevisions();
    return;
  }
  ui.publishStatus.textContent = res.status === 409
    ? `Not published: ${errorText(res.body, res.status)}`
    : res.status === 422 ? `Not published: ${errorText(res.body, res.status)}` : `Not published: ${errorText(res.body, res.status)}`;
});

async function loadRevisions(): Promise<void> {
  const [tenant, flow] = ui.revisionsFlow.value.split('|');
  ui.diff.hidden = true;
  if (!tenant || !flow) {
    ui.revisions.replaceChildren(h('li', {}, 'No tenant serves this file: nothing to list.'));
    return;
  }
  const res = await call<Revision[]>(`/tenants/${encodeURIComponent(tenant)}/flows/${encodeURIComponent(flow)}/revisions?text=1`);
  if (res.status !== 200) return;
  const list = res.body;
  const now = list.find((r) => r.current);
  ui.revisions.replaceChildren(...[...list].reverse().map((r) => {
    const when = new Date(r.publishedAt).toLocaleString();
    const li = h('li', r.current ? { class: 'current' } : {},
      `${r.revision}${r.current ? ' (current)' : ''} — ${r.kind === 'baseline' || r.kind === 'files' ? 'before the first publish' : `${r.kind} by ${r.by}`}, ${when}${r.note ? `: ${r.note}` : ''}`);
    const row = h('div', { class: 'row' });
    if (now && !r.current && r.text !== undefined) {
      const diff = h('button', { type: 'button' }, 'Diff with current');
      diff.addEventListener('click', () => showDiff(r, now));
      const back = h('button', { type: 'button', class: 'danger' }, 'Roll back to this');
      back.addEventListener('click', () => void rollback(tenant, flow, r.revision));
      row.append(diff, back);
      li.append(row);
    }
    return li;
  }));
}

function showDiff(from: Revision, to: Revision): void {
  const parts = diffLines(from.text ?? '', to.text ?? '');
  const lines: HTMLElement[] = [h('span', {}, `--- ${from.revision} (${from.path})\n+++ ${to.revision} (current)\n`)];
  for (const p of parts) {
    if (!p.added && !p.removed) {
      const ls = p.value.split('\n');
      if (ls.length > 6) lines.push(h('span', {}, `${ls.slice(0, 2).join('\n')}\n  … ${ls.length - 4} unchanged lines …\n${ls.slice(-3).join('\n')}`));
      else lines.push(h('span', {}, p.value));
    } else lines.push(h('span', { class: p.added ? 'add' : 'del' }, p.value.replace(/^/gm, p.added ? '+ ' : '- ').replace(/[+-] $/, '')));
  }
  ui.diff.replaceChildren(...lines);
  ui.diff.hidden = false;
  ui.diff.focus();
}

async function rollback(tenant: string, flow: string, revision: string): Promise<void> {
  if (!confirm(`Make revision ${revision} current again for ${tenant} / ${flow}? New conversations will use it at once.`)) return;
  const res = await call<{ revision: string }>(`/tenants/${encodeURIComponent(tenant)}/flows/${encodeURIComponent(flow)}/rollback`, { revision });
  // the source is read again (the rollback put the older text back), then the outcome is said
  if (res.status === 200 && current) await openSource(current.path);
  ui.publishStatus.className = res.status === 200 ? 'action-status ok' : 'action-status';
  ui.publishStatus.textContent = res.status === 200 ? `Rolled back: ${tenant} / ${flow} serves revision ${res.body.revision} again.` : `Not rolled back: ${errorText(res.body as never, res.status)}`;
}

ui.revisionsFlow.addEventListener('change', () => void loadRevisions());

// --- preview chat ---------------------------------------------------------

type QuestlineGlobal = { init(o: Record<string, unknown>): unknown; destroy(): void; on(ev: string, fn: (e: unknown) => void): () => void };

function widgetScript(): Promise<QuestlineGlobal> {
  const w = window as unknown as { Questline?: QuestlineGlobal };
  if (w.Questline && 'init' in w.Questline) return Promise.resolve(w.Questline);
  return new Promise((resolve, reject) => {
    const s = h('script', { src: `${BASE}/widget.js` });
    s.addEventListener('load', () => (w.Questline ? resolve(w.Questline) : reject(new Error('widget.js did not load'))));
    s.addEventListener('error', () => reject(new Error('widget.js did not load')));
    document.head.append(s);
  });
}

let offTrace: (() => void) | null = null;
ui.previewStart.addEventListener('click', async () => {
  if (!current) return;
  ui.previewStatus.textContent = 'Starting a preview on the draft…';
  const res = await call<{ sessionId: string; token: string; tenant: string; flow: string; key: string; revision: string; error?: { message: string } }>('/preview', { path: current.path, text: view.state.doc.toString() });
  if (res.status !== 201) {
    ui.previewStatus.textContent = `No preview: ${errorText(res.body, res.status)}`;
    return;
  }
  const p = res.body;
  preview = { sessionId: p.sessionId, token: p.token, tenant: p.tenant, flow: p.flow, key: p.key };
  const server = `${location.origin}${BASE}`;
  // the widget resumes the preview session the server started on the draft
  sessionStorage.setItem(`questline:${server}|${p.key}|${p.flow}`, JSON.stringify({ sessionId: p.sessionId, token: p.token, floor: 0, open: true }));
  const q = await widgetScript();
  q.destroy();
  ui.preview.replaceChildren();
  q.init({ key: p.key, flow: p.flow, server, mode: 'inline', target: ui.preview, storage: 'session', title: `Preview of the draft (${p.revision})` });
  offTrace?.();
  offTrace = q.on('state', () => void loadTrace());
  ui.previewStatus.textContent = `Preview session on draft revision ${p.revision} (${p.tenant}): never delivered, not counted, marked Preview in the console.`;
  ui.goldenSave.disabled = false;
  await loadTrace();
});

async function loadTrace(): Promise<void> {
  if (!preview) return;
  const res = await call<{ events: Array<{ type: string; nodeId?: string; edgeId?: string; key?: string; turn?: number }> }>(`/sessions/${preview.sessionId}`);
  if (res.status !== 200) return;
  ui.trace.replaceChildren(...res.body.events.slice(-60).map((e) => h('li', {}, [e.turn !== undefined ? `#${e.turn}` : '', e.type, e.nodeId ?? '', e.edgeId ?? '', e.key ?? ''].filter(Boolean).join(' '))));
}

// --- goldens ------------------------------------------------------------------

ui.goldenSave.addEventListener('click', async () => {
  if (!preview || !current) return;
  const name = prompt('Name of the golden (a file beside the flow)', 'studio-preview');
  if (!name) return;
  const res = await call<{ file?: string; error?: { message: string } }>('/goldens', { path: current.path, sessionId: preview.sessionId, name });
  ui.goldenStatus.textContent = res.status === 201 ? `Saved ${res.body.file}.` : `Not saved: ${errorText(res.body, res.status)}`;
});

ui.goldensRun.addEventListener('click', async () => {
  if (!current) return;
  ui.goldenStatus.textContent = 'Running the goldens on the draft…';
  const res = await call<{ passed: number; failed: number; results: Array<{ file: string; ok: boolean; message?: string; tenant?: string }>; tenants?: Array<{ tenant: string; flow: string; passed: number; failed: number }>; coverage: { nodes: string[]; edges: string[]; missing: { nodes: string[]; edges: string[]; guardArms: string[] } } | null; error?: { message: string } }>(
    '/goldens/run', { path: current.path, text: view.state.doc.toString() });
  if (res.status !== 200) {
    ui.goldenStatus.textContent = `Not run: ${errorText(res.body, res.status)}`;
    return;
  }
  const b = res.body;
  const c = b.coverage;
  // an edge whose guard arms were not both seen counts as not exercised too
  if (c) map.coverage({ nodes: new Set(c.missing.nodes), edges: new Set([...c.missing.edges, ...c.missing.guardArms.map((a) => a.slice(0, a.lastIndexOf(':')))]) });
  ui.goldenStatus.textContent = `${b.passed} passed, ${b.failed} failed.${c ? ` Never exercised (red, dashed on the graph): ${c.missing.nodes.length} nodes, ${c.missing.edges.length} edges, ${c.missing.guardArms.length} guard arms.` : ''}${b.tenants?.length ? ` Per tenant: ${b.tenants.map((t) => `${t.tenant} ${t.passed} passed, ${t.failed} failed`).join('; ')}.` : ''}${b.results.filter((r) => !r.ok).map((r) => ` ${r.file}${r.tenant ? ` [tenant ${r.tenant}]` : ''}: ${r.message ?? 'failed'}`).join('')}`;
});

// --- describe your intake ------------------------------------------------------

let drafted: string | null = null;
$<HTMLFormElement>('draft-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const status = $('draft-status');
  const description = $<HTMLTextAreaElement>('draft-description').value.trim();
  const locale = $<HTMLInputElement>('draft-locale').value.trim() || 'en';
  status.textContent = 'Drafting (the model writes, the compiler checks, up to three repairs)…';
  $('draft-open').hidden = true;
  const res = await call<{ text: string; diagnostics: WireDiagnostic[]; goldens: Array<{ name: string; ok: boolean | null }>; rounds: number; error?: { message: string } }>('/draft', { description, locale });
  if (res.status !== 200) {
    status.textContent = errorText(res.body, res.status);
    return;
  }
  const errors = res.body.diagnostics.filter((d) => d.severity === 'error').length;
  drafted = res.body.text;
  status.textContent = `Drafted in ${res.body.rounds} round${res.body.rounds > 1 ? 's' : ''}: ${errors} error${errors === 1 ? '' : 's'}; proposed goldens: ${res.body.goldens.map((g) => `${g.name} ${g.ok === true ? 'passes' : g.ok === false ? 'fails' : 'not run'}`).join(', ') || 'none'}. Nothing is published.`;
  $('draft-open').hidden = false;
  $('draft-save').hidden = false;
  $('draft-save-status').textContent = '';
  const id = /^id:\s*["']?([\w.-]+)/m.exec(drafted)?.[1] ?? 'new-intake';
  $<HTMLInputElement>('draft-path').value = `global/${id.replace(/^flow\./, '').replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.flow.yaml`;
});

$<HTMLFormElement>('draft-save').addEventListener('submit', async (e) => {
  e.preventDefault();
  if (drafted === null) return;
  const status = $('draft-save-status');
  const path = $<HTMLInputElement>('draft-path').value.trim();
  status.className = 'action-status';
  // the draft is YAML: a .json file gets it as JSON
  const text = /\.json$/i.test(path) && !isJsonSource(drafted) ? `${JSON.stringify(parseYaml(drafted), null, 2)}\n` : drafted;
  const res = await call<{ path: string; flows: Array<{ tenant: string; flow: string }>; error?: { message: string }; diagnostics?: WireDiagnostic[] }>('/sources', { path, text });
  if (res.status !== 201) {
    status.textContent = `Not saved: ${errorText(res.body, res.status)}`;
    return;
  }
  status.className = 'action-status ok';
  status.textContent = `Saved as ${res.body.path}${res.body.flows.length ? `; it feeds ${res.body.flows.map((f) => `${f.tenant} / ${f.flow}`).join(', ')}` : ''}. It is an ordinary source now: edit it and publish.`;
  await loadSources();
  ui.source.value = res.body.path;
  await openSource(res.body.path);
});
$('draft-open').addEventListener('click', () => {
  if (drafted === null) return;
  // the draft replaces the editor's text only (a draft of this file); publishing is still a separate step
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: drafted } });
  view.focus();
});

// --- zoom, sign in --------------------------------------------------------

ui.zoomIn.addEventListener('click', () => map.zoomBy(1.25));
ui.zoomOut.addEventListener('click', () => map.zoomBy(0.8));
ui.zoomFit.addEventListener('click', () => map.fit());
map.selectable(pickNode);

async function start(): Promise<void> {
  const probe = await call('/sources');
  if (probe.status !== 200) {
    ui.signInError.textContent = probe.status === 403 ? 'That key is not the admin key or an operator key.' : errorText(probe.body as never, probe.status);
    sessionStorage.removeItem(KEY_STORAGE);
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  ui.signIn.hidden = true;
  ui.studio.hidden = false;
  ui.signOut.hidden = false;
  ui.connection.textContent = 'Signed in';
  const s = await call<JSONSchema7>('/flow-schema');
  if (s.status === 200) schema = s.body;
  await loadSources();
}

ui.signInForm.addEventListener('submit', (e) => {
  e.preventDefault();
  key = ui.keyInput.value.trim();
  ui.signInError.textContent = '';
  if (!key) {
    ui.signInError.textContent = 'Type the key first.';
    return;
  }
  void start();
});
ui.signOut.addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORAGE);
  location.reload();
});

if (key) void start();
