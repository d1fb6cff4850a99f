import { describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';
import { runTurn } from '../../server/conversation/turn-runner.ts';
import { flowFor, matchLanguageSwitch, matchLocale } from '../../server/engine/locale.ts';
import { sessionFromJson, sessionToJson } from '../../server/engine/session.ts';
import { compileText } from '../../server/flow/document.ts';
import { flowDocumentJsonSchema } from '../../server/flow/json-schema.ts';
import { turnPrompt } from '../../server/extract/anthropic/prompt.ts';
import { extractionRequest } from '../../server/engine/extraction.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answer, begin, lastAsk, NOW, texts } from '../support/engine-harness.ts';

// One flow in two languages (flow-ir.md "Locales"): projected per locale at
// compile time, one revision, built-in texts from the catalogue.

const DOC = {
  version: 'v1',
  id: 'flow.l10n',
  locales: ['en', 'de'],
  nodes: [
    { id: 'q.sport', type: 'question', key: 'sport',
      prompt: { en: 'Which sport?', de: 'Welche Sportart?' },
      answer: { type: 'enum', options: [
        { value: 'football', label: { en: 'Football', de: 'Fußball' }, synonyms: { en: ['soccer'], de: ['fussball'] } },
        { value: 'tennis', label: 'Tennis' },
      ] } },
    { id: 'q.size', type: 'question', key: 'size', prompt: { en: 'How big, in m²?', de: 'Wie groß, in m²?' }, answer: { type: 'number', min: 10 } },
    { id: 'n.end', type: 'terminal', say: { en: 'Thanks!', de: 'Danke!' } },
  ],
};

function compiled(doc: Record<string, unknown> = DOC, file = 'l10n.flow.json') {
  const text = JSON.stringify(doc, null, 2);
  const r = compileText(text, file);
  if (r.kind !== 'flow') throw new Error('not a flow');
  return { text, ...r };
}

describe('compiling a flow with locales', () => {
  it('compiles once per locale: plain strings, one revision, the same node ids, each locale its catalogue', () => {
    const { flow, diagnostics } = compiled();
    expect(diagnostics).toEqual([]);
    const de = flow!.i18n!.byLocale.get('de')!;
    expect(flow!.locale).toBe('en');
    expect(de.locale).toBe('de');
    expect(de.revision).toBe(flow!.revision);
    expect([...de.nodes.keys()]).toEqual([...flow!.nodes.keys()]);
    expect(de.nodes.get('q.sport')!.node).toMatchObject({ prompt: 'Welche Sportart?', answer: { options: [{ label: 'Fußball', synonyms: ['fussball'] }, { label: 'Tennis' }] } });
    expect(flow!.nodes.get('q.sport')!.node).toMatchObject({ prompt: 'Which sport?', answer: { options: [{ label: 'Football', synonyms: ['soccer'] }, { label: 'Tennis' }] } });
    expect(de.messages.not_understood).toBe('Entschuldigung, das habe ich nicht verstanden.');
    expect(flow!.messages.not_understood).toBe("Sorry, I didn't understand that.");
  });

  it("projects an assessment's must_mention terms per locale, so a German visitor is asked about a German word", () => {
    const doc = { ...DOC, nodes: [
      { id: 'q.problem', type: 'question', key: 'problem', prompt: { en: 'What is wrong?', de: 'Was ist kaputt?' }, answer: { type: 'text' },
        assess: { criteria: 'names the lights', min_words: 2, must_mention: { en: ['light'], de: ['Leuchte'] } } },
      { id: 'n.end', type: 'terminal', say: { en: 'Thanks!', de: 'Danke!' } },
    ] };
    const { flow, diagnostics } = compiled(doc);
    expect(diagnostics).toEqual([]);
    expect(flow!.nodes.get('q.problem')!.node).toMatchObject({ assess: { must_mention: ['light'] } });
    expect(flow!.i18n!.byLocale.get('de')!.nodes.get('q.problem')!.node).toMatchObject({ assess: { must_mention: ['Leuchte'] } });
  });

  it('changes the revision when only a translation changes', () => {
    const changed = structuredClone(DOC);
    (changed.nodes[0]!.prompt as Record<string, string>).de = 'Welcher Sport?';
    expect(compiled(changed).flow!.revision).not.toBe(compiled().flow!.revision);
  });

  it('warns about a missing translation at its line and column, and a text for an undeclared locale', () => {
    const doc = structuredClone(DOC);
    doc.nodes[1]!.prompt = { en: 'How big, in m²?' } as never;
    (doc.nodes[2]!.say as Record<string, string>).fr = 'Merci !';
    const { text, diagnostics, flow } = compiled(doc);
    expect(flow).toBeDefined();
    const missing = diagnostics.find((d) => d.code === 'missing_translation')!;
    expect(missing).toMatchObject({ severity: 'warning', file: 'l10n.flow.json' });
    expect(missing.message).toContain("no 'de' text for nodes.1.prompt");
    const at = text.indexOf('"prompt": {\n        "en": "How big');
    expect(missing.line).toBe(text.slice(0, at).split('\n').length);
    expect(missing.col).toBe(17); // the map's opening brace
    expect(diagnostics.find((d) => d.code === 'unknown_locale')?.message).toContain("'fr'");
    expect(flow!.i18n!.byLocale.get('de')!.nodes.get('q.size')!.node).toMatchObject({ prompt: 'How big, in m²?' });
  });

  it('refuses texts by locale in a flow that declares no locales', () => {
    const { locales: _l, ...doc } = DOC;
    const r = compiled(doc);
    expect(r.flow).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toContain('locales_missing');
  });

  it('questline validate warns with file:line:col; --strict makes it an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'questline-l10n-'));
    const file = join(dir, 'x.flow.yaml');
    writeFileSync(file, 'version: v1\nid: flow.x\nlocales: [en, de]\nnodes:\n  - id: q.a\n    type: question\n    key: a\n    prompt: { en: "A?" }\n');
    const run = async (...argv: string[]) => {
      let err = '';
      const code = await main(argv, { out: () => {}, err: (t) => (err += `${t}\n`) });
      return { code, err };
    };
    const loose = await run('validate', file);
    expect(loose.code).toBe(0);
    expect(loose.err).toContain(`${file}:8:13: warning [missing_translation] no 'de' text for nodes.0.prompt`);
    const strict = await run('validate', '--strict', file);
    expect(strict.code).toBe(1);
    expect(strict.err).toContain(`${file}:8:13: error [missing_translation]`);
  });

  it('gives editors both forms of a text in the JSON Schema', () => {
    const schema = flowDocumentJsonSchema() as { $defs: Record<string, { anyOf: Array<{ type: string }> }> };
    expect(schema.$defs.Text!.anyOf.map((s) => s.type)).toEqual(['string', 'object']);
    expect(schema.$defs.Texts!.anyOf.map((s) => s.type)).toEqual(['array', 'object']);
  });
});

describe('a session in a locale', () => {
  const root = compiled().flow!;

  it('matches the visitor\'s languages against the flow\'s locales, falling back to the default', () => {
    expect(matchLocale(root, 'de-AT')).toBe('de');
    expect(matchLocale(root, 'de_AT')).toBe('de'); // an underscore tag reads as the lexicon's baseLanguage reads it
    expect(matchLocale(root, ['fr-FR', 'de;q=0.5'.split(';')[0]!])).toBe('de');
    expect(matchLocale(root, ['fr', 'es'])).toBe('en');
    expect(matchLocale(root, undefined)).toBe('en');
    expect(flowFor(root, 'DE').locale).toBe('de');
  });

  it('starts in German, re-asks with the German catalogue, and stores the locale', () => {
    const s0 = begin(root, { locale: 'de-AT' });
    expect(s0.session.locale).toBe('de');
    expect(texts(s0)).toEqual(['Welche Sportart?']);
    expect(lastAsk(s0)!.quickReplies).toEqual(['Fußball', 'Tennis']);
    const wrong = answer(root, s0.session, { sport: 'golf' });
    expect(lastAsk(wrong)!.text).toBe('Bitte wählen Sie eine Möglichkeit: Fußball, Tennis. Welche Sportart?');
    const r2 = answer(root, answer(root, s0.session, { sport: 'football' }).session, { size: 5 });
    expect(lastAsk(r2)!.text).toBe('Bitte geben Sie eine Zahl von mindestens 10 an. Wie groß, in m²?');
    expect(sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(r2.session)))).locale).toBe('de');
  });

  it('switches language mid-conversation on "English": answers kept, the question asked again in English', async () => {
    const started = await runTurn(root, undefined, { kind: 'start', init: { now: NOW, locale: 'de' } }, {});
    const one = await runTurn(root, started.session, { kind: 'text', text: 'Fußball', now: NOW }, {});
    expect(one.session.answers.get('sport')?.value).toBe('football');
    expect(one.messages.at(-1)?.text).toBe('Wie groß, in m²?');
    expect(matchLanguageSwitch(root, 'English!')).toBe('en');
    const switched = await runTurn(root, one.session, { kind: 'text', text: 'English!', now: NOW }, {});
    expect(switched.session.locale).toBe('en');
    expect(switched.session.answers.get('sport')?.value).toBe('football');
    expect(switched.messages.map((m) => m.text)).toEqual(["Sure — let's carry on in English.", 'How big, in m²?']);
    expect(switched.events.map((e) => e.type)).toContain('locale_changed');
    const back = await runTurn(root, switched.session, { kind: 'text', text: 'auf Deutsch', now: NOW }, {});
    expect(back.messages.map((m) => m.text)).toEqual(['Gerne — machen wir auf Deutsch weiter.', 'Wie groß, in m²?']);
  });

  it('takes German command words, and English ones too, in a German session', async () => {
    const started = await runTurn(root, undefined, { kind: 'start', init: { now: NOW, locale: 'de' } }, {});
    const one = await runTurn(root, started.session, { kind: 'text', text: 'Tennis', now: NOW }, {});
    const undo = await runTurn(root, one.session, { kind: 'text', text: 'zurück', now: NOW }, {});
    expect(undo.session.answers.has('sport')).toBe(false);
    expect(undo.messages.at(-1)?.text).toBe('Welche Sportart?');
    const stop = await runTurn(root, undo.session, { kind: 'text', text: 'cancel', now: NOW }, {});
    expect(stop.messages.at(-1)?.text).toBe('Möchten Sie hier aufhören? Sie können dort weitermachen, wo Sie aufgehört haben.');
  });

  it('uses the flow\'s own messages for a locale over the catalogue', () => {
    const flow = compiled({ ...DOC, messages: { de: { reask_choose_one: 'Bitte eine davon: {options}.' } } }).flow!;
    const s0 = begin(flow, { locale: 'de' });
    expect(lastAsk(answer(flow, s0.session, { sport: 'golf' }))!.text).toBe('Bitte eine davon: Fußball, Tennis. Welche Sportart?');
  });

  it('tells extractors and the model the visitor\'s language; English requests stay as they were', () => {
    const s0 = begin(root, { locale: 'de' });
    const de = extractionRequest(flowFor(root, 'de'), s0.session, 'Fußball', NOW);
    expect(de.locale).toBe('de');
    expect(turnPrompt(de)).toContain('The user writes in German (de)');
    const en = extractionRequest(root, begin(root).session, 'football', NOW);
    expect(en.locale).toBeUndefined();
    expect(turnPrompt(en)).not.toContain('The user writes in');
  });
  it('reads phone numbers in the country of the session\'s language: its region, then the tenant\'s, then the language\'s home, then the flow\'s', () => {
    const flow = compiled({ ...DOC, default_country: 'US' }).flow!;
    const de = begin(flow, { locale: 'de' });
    expect(extractionRequest(flowFor(flow, 'de'), de.session, '0151 23456789', NOW).defaultCountry).toBe('DE');
    expect(extractionRequest(flowFor(flow, 'de'), { ...de.session, context: { country: 'ch' } }, '0151', NOW).defaultCountry).toBe('CH');
    expect(extractionRequest(flowFor(flow, 'de'), { ...de.session, locale: 'de-AT' }, '0151', NOW).defaultCountry).toBe('AT');
    expect(extractionRequest(flow, begin(flow).session, '0151', NOW).defaultCountry).toBe('US');
  });
});

describe('option synonyms by region', () => {
  // "football" is soccer outside US English: a regional key replaces the locale's list for visitors from that region
  const REGIONAL = {
    ...DOC, default_country: 'US',
    nodes: [
      { id: 'q.sport', type: 'question', key: 'sport', prompt: { en: 'Which sport?', de: 'Welche Sportart?' },
        answer: { type: 'enum', options: [
          { value: 'soccer', label: { en: 'Soccer', de: 'Fußball' }, synonyms: { en: ['football'], 'en-US': ['futbol'], de: ['fussball'] } },
          { value: 'american_football', label: { en: 'American football', de: 'American Football' }, synonyms: { en: ['gridiron'], 'en-US': ['football', 'gridiron'], de: ['football'] } },
        ] } },
      DOC.nodes[2]!,
    ],
  };
  const sportOf = async (locale: string | undefined, reply: string) => {
    const root = compiled(REGIONAL).flow!;
    const s0 = await runTurn(root, undefined, { kind: 'start', init: { now: NOW, ...(locale ? { locale } : {}) } }, {});
    const r = await runTurn(root, s0.session, { kind: 'text', text: reply, now: NOW }, {});
    return r.session.answers.get('sport')?.value;
  };

  it('keeps a regional key of a declared locale without an unknown_locale warning; an undeclared language still warns', () => {
    expect(compiled(REGIONAL).diagnostics).toEqual([]);
    const doc = structuredClone(REGIONAL);
    ((doc.nodes[0] as { answer: { options: Array<{ synonyms: Record<string, string[]> }> } }).answer.options[0]!.synonyms)['fr-CA'] = ['soccer'];
    expect(compiled(doc).diagnostics.find((d) => d.code === 'unknown_locale')?.message).toContain("'fr-CA'");
  });

  it('reads the region of the visitor\'s language tag: en-GB football is soccer, en-US and a plain en in a US flow American football', async () => {
    expect(await sportOf('en-GB', 'football')).toBe('soccer');
    expect(await sportOf('en-AU', 'football')).toBe('soccer');
    expect(await sportOf('en-US', 'football')).toBe('american_football');
    expect(await sportOf(undefined, 'football')).toBe('american_football');
    expect(await sportOf('en-GB', 'gridiron')).toBe('american_football');
    expect(await sportOf('de-DE', 'Fußball')).toBe('soccer');
    expect(await sportOf('de-AT', 'Football')).toBe('american_football');
  });

  it('keeps the region in the stored session and across a restart, and reads phone numbers in it', async () => {
    const root = compiled(REGIONAL).flow!;
    const s0 = begin(root, { locale: ['en-GB', 'en'] });
    expect(s0.session.region).toBe('GB');
    expect(sessionFromJson(sessionToJson(s0.session)).region).toBe('GB');
    expect(extractionRequest(root, s0.session, '07911 123456', NOW).defaultCountry).toBe('GB');
    const again = await runTurn(root, s0.session, { kind: 'text', text: 'restart', now: NOW }, {});
    expect(again.session.region).toBe('GB');
    const req = extractionRequest(root, s0.session, 'football', NOW);
    expect(JSON.stringify(req.current)).not.toContain('regional_synonyms');
  });
});

describe('the visitor\'s languages at a session start', () => {
  it('reads Accept-Language with its q-values (negotiator), the explicit locale first', async () => {
    const { acceptedLanguages, wantedLocales } = await import('../../server/transport/accept-language.ts');
    expect(acceptedLanguages({ 'accept-language': 'fr;q=0.4, de-AT, en;q=0.8, es;q=0' })).toEqual(['de-AT', 'en', 'fr']);
    expect(acceptedLanguages({})).toEqual([]);
    expect(wantedLocales('es', { 'accept-language': 'de' })).toEqual(['es', 'de']);
    const root = compiled().flow!;
    expect(matchLocale(root, wantedLocales(undefined, { 'accept-language': 'fr;q=0.9, de-CH;q=0.8, en;q=0.1' }))).toBe('de');
  });
});

describe('the shipped sales intake in German', () => {
  const SALES = 'flows/global/sales.flow.json';
  const REPLIES = ['Wir brauchen ein Angebot für neue Beleuchtung', '420', 'Fußball', 'Außenplatz', '4', '8', 'überspringen', '200', '25000',
    'innerhalb von 3 Monaten', 'Anna Schmidt', 'Gymnasium Nord', 'anna@gymnasium-nord.de', 'Montagehöhe ändern', '9', 'ja, passt'];

  it('declares en and de with every visitor-facing text translated (validate --strict passes)', async () => {
    let err = '';
    const code = await main(['validate', '--strict', SALES], { out: () => {}, err: (t) => (err += `${t}\n`) });
    expect(err).not.toContain('missing_translation');
    expect(code).toBe(0);
  });

  it('speaks German in every bot message of a German conversation, and completes', async () => {
    const { compileFile } = await import('../../server/flow/document.ts');
    const { LocalConversation } = await import('../../server/conversation/local-conversation.ts');
    const r = compileFile(SALES);
    const conv = new LocalConversation(r.kind === 'flow' ? r.flow! : (undefined as never), {});
    const said: string[] = [];
    said.push(...(await conv.start({ locale: 'de-DE', now: NOW })).messages.map((m) => m.text));
    for (const text of REPLIES) said.push(...(await conv.send(text, NOW)).messages.map((m) => m.text));
    expect(conv.session.status).toBe('completed');
    expect(said.length).toBeGreaterThan(REPLIES.length);
    const english = /\b(the|you|your|please|what|which|thanks|sorry|choose|answer)\b/i;
    expect(said.filter((t) => english.test(t))).toEqual([]);
    expect(said.at(-1)).toBe('Danke, Anna Schmidt! Jemand aus unserem Team meldet sich innerhalb eines Werktags bei Ihnen.');
  });

  it('runs goldens with `locale:` and reports per-locale text coverage', async () => {
    const { runGolden } = await import('../../server/golden/run-golden.ts');
    const { coverageFor, coverageReport, formatCoverage, recordCoverage } = await import('../../server/golden/coverage.ts');
    const { default: project } = await import('../../questline.config.ts'); // the sales flow calls crm.lookup_company
    const r = await runGolden('flows/global/sales-de-happy.golden.yaml', { noSnapshot: true, implementations: project });
    expect(r.failures).toEqual([]);
    expect(r.shown).toContain('de q.court_size');
    expect(r.shown?.some((s) => s.startsWith('en '))).toBe(false);
    const map = new Map();
    recordCoverage(coverageFor(map, r.flow!), r.events, r.shown);
    const report = coverageReport([...map.values()][0]);
    const de = report.locales!.find((l) => l.locale === 'de')!;
    const en = report.locales!.find((l) => l.locale === 'en')!;
    expect(de.texts.covered).toBeGreaterThan(10);
    expect(de.texts.missing).toContain('q.order_number');
    expect(en.texts.covered).toBe(0);
    expect(formatCoverage(report).join('\n')).toMatch(/texts in de +\d+%  \d+\/\d+\n  never shown in de: .*q\.order_number/);
  });
});

describe('packs and tenants change texts by locale', () => {
  it('an overlay changes one locale\'s prompt and keeps the others; a plain list in a concat field goes to every locale', async () => {
    const { mergeAndCompile } = await import('../../server/flow/packs/packs.ts');
    const { Overlay, FlowV1 } = await import('../../server/flow/schema.ts');
    const base = FlowV1().parse(DOC);
    const overlay = Overlay().parse({
      version: 'v1', layer: 'tenant', extends: 'flow.l10n',
      nodes: [{ id: 'q.sport', prompt: { de: 'Welchen Sport spielen Sie?' } }],
      messages: { de: { not_understood: 'Wie bitte?' } },
    });
    const r = mergeAndCompile({ flow: base }, [{ overlay }]);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const de = r.flow!.i18n!.byLocale.get('de')!;
    expect(de.nodes.get('q.sport')!.node).toMatchObject({ prompt: 'Welchen Sport spielen Sie?' });
    expect(r.flow!.nodes.get('q.sport')!.node).toMatchObject({ prompt: 'Which sport?' });
    expect(de.messages.not_understood).toBe('Wie bitte?');
    expect(r.flow!.messages.not_understood).toBe("Sorry, I didn't understand that.");

    const withPaths = FlowV1().parse({ ...DOC, paths: { options: { p: { label: 'P', examples: { en: ['one'], de: ['eins'] } } } } });
    const more = Overlay().parse({ version: 'v1', layer: 'industry', extends: 'flow.l10n', merge: { 'paths.options.*.examples': 'concat' },
      paths: { options: { p: { examples: ['two'] } } } });
    const merged = mergeAndCompile({ flow: withPaths }, [{ overlay: more }]);
    expect(merged.ir!.paths!.options.p!.examples).toEqual({ en: ['one', 'two'], de: ['eins', 'two'] });
  });

  it('tenant.json `messages` changes the built-in texts of the tenant\'s flows', async () => {
    const { Tenant } = await import('../../server/catalog/tenant.ts');
    const t = Tenant().parse({ id: 'x', name: 'X', keys: ['pk_x_12345'], origins: [], flows: ['flow.l10n'], messages: { de: { handoff: 'Sie werden verbunden.' } } });
    expect(t.messages?.de?.handoff).toBe('Sie werden verbunden.');
    expect(() => Tenant().parse({ id: 'x', name: 'X', keys: ['pk_x_12345'], origins: [], flows: [], messages: { de: { no_such_text: 'x' } } })).toThrow();
  });
});

describe('the conversation service', () => {
  it('starts a session in the best of the visitor\'s languages, keeps it in the stored session and the state, and switches on request', async () => {
    const { ConversationService } = await import('../../server/conversation/service.ts');
    const { TenantDirectory } = await import('../../server/catalog/tenants.ts');
    const { MemoryStore } = await import('../../server/store/memory.ts');
    const store = new MemoryStore();
    let t = Date.parse('2026-01-15T10:00:00Z');
    const svc = new ConversationService({ store, tenants: TenantDirectory.load('flows'), env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 } });
    const started = await svc.startSession({ tenant: 'acme', flow: 'flow.sales', locale: ['fr-FR', 'de-AT', 'en'] });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value.state.locale).toBe('de');
    expect(started.value.messages.at(-1)?.text).toMatch(/^Suchen Sie neue LED-Beleuchtung/);
    expect((await store.load(started.value.sessionId))!.session.locale).toBe('de');
    const switched = await svc.message(started.value.sessionId, 'English please', 'c1');
    if (!switched.ok) throw new Error(switched.error.message);
    expect(switched.value.state.locale).toBe('en');
    expect(switched.value.messages.filter((m) => m.role !== 'user').map((m) => m.text)).toEqual(["Sure — let's carry on in English.", expect.stringMatching(/^Are you after new LED lighting/)]);
    const plain = await svc.startSession({ tenant: 'acme', flow: 'flow.sales' });
    expect(plain.ok && plain.value.state.locale).toBe('en');
  });
});

describe('revisions of a flow with locales', () => {
  it('are archived as written and recompile to the same revision with every locale', async () => {
    const { FlowRegistry, MemoryArchive } = await import('../../server/catalog/registry.ts');
    const archive = new MemoryArchive();
    const flow = compiled().flow!;
    new FlowRegistry(archive).publish(flow);
    const again = new FlowRegistry(archive).pinned(flow.id, flow.revision)!;
    expect(again.revision).toBe(flow.revision);
    expect(again.i18n!.byLocale.get('de')!.nodes.get('q.sport')!.node).toMatchObject({ prompt: 'Welche Sportart?' });
  });
});
