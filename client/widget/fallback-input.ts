import type { InputHint } from '../../server/protocol/index.ts';

// The structured control the widget offers once a reply to a date, phone,
// number or option question was not understood (the session state's `input`
// with `offer`, docs/interfaces.md): a date picker, a phone field with a
// country selector, a number field with a unit selector, and "Not sure" /
// "Skip" where the question may be skipped. The textarea keeps working
// beside it. Whatever the control, its value is sent as the visitor's text
// ("2027-01-15", "+49 30 1234567", "12 ft"), so the server understands and
// checks it exactly like typed text. Every field has a visible label; the
// group is named, sits just above the composer in the tab order, and takes
// focus only when the visitor moves there.

/** The control's words in one language. */
export interface FallbackTexts {
  group: string;
  date: string;
  country: string;
  phone: string;
  number: string;
  unit: string;
  use: string;
  notSure: string;
  skip: string;
}

const EN: FallbackTexts = {
  group: 'Or choose your answer here', date: 'Date', country: 'Country', phone: 'Phone number',
  number: 'Number', unit: 'Unit', use: 'Send this answer', notSure: 'Not sure', skip: 'Skip',
};

const BY_LANGUAGE: Readonly<Record<string, FallbackTexts>> = {
  en: EN,
  de: { group: 'Oder wählen Sie Ihre Antwort hier', date: 'Datum', country: 'Land', phone: 'Telefonnummer',
    number: 'Zahl', unit: 'Einheit', use: 'Diese Antwort senden', notSure: 'Weiß nicht', skip: 'Überspringen' },
  fr: { group: 'Ou choisissez votre réponse ici', date: 'Date', country: 'Pays', phone: 'Numéro de téléphone',
    number: 'Nombre', unit: 'Unité', use: 'Envoyer cette réponse', notSure: 'Je ne sais pas', skip: 'Passer' },
  es: { group: 'O elige tu respuesta aquí', date: 'Fecha', country: 'País', phone: 'Número de teléfono',
    number: 'Número', unit: 'Unidad', use: 'Enviar esta respuesta', notSure: 'No estoy seguro', skip: 'Omitir' },
  ar: { group: 'أو اختر إجابتك هنا', date: 'التاريخ', country: 'البلد', phone: 'رقم الهاتف',
    number: 'الرقم', unit: 'الوحدة', use: 'أرسل هذه الإجابة', notSure: 'لست متأكدًا', skip: 'تخطٍّ' },
  he: { group: 'או בחרו את התשובה כאן', date: 'תאריך', country: 'מדינה', phone: 'מספר טלפון',
    number: 'מספר', unit: 'יחידה', use: 'שליחת התשובה', notSure: 'לא בטוח', skip: 'דילוג' },
};

/** The control's words for a locale: its language's, else English. */
export function fallbackTexts(locale: string): FallbackTexts {
  return BY_LANGUAGE[locale.toLowerCase().split('-')[0] ?? ''] ?? EN;
}

export const FALLBACK_CSS = /* css */ `
.fallback { margin: 4px 14px 0; padding: 8px 10px; border: 1px dashed var(--_border); border-radius: 10px; display: flex; flex-wrap: wrap; align-items: flex-end; gap: 8px; flex: none; }
.fallback[hidden] { display: none; }
.fallback .legend { flex: 1 0 100%; margin: 0; font-size: 0.85em; color: var(--_muted); }
.fallback .field { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.fallback .field.grow { flex: 1 1 120px; }
.fallback label { font-size: 0.85em; color: var(--_muted); }
.fallback input, .fallback select {
  font: inherit; font-size: max(16px, var(--_size)); color: var(--_text); background: var(--_bg);
  border: 1px solid var(--_border); border-radius: 8px; padding: 6px 8px; min-height: 36px; min-width: 0;
}
.fallback select.country { max-width: 11em; }
.fallback input:focus-visible, .fallback select:focus-visible, .fallback button:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
`;

let countryNames: { of(code: string): string | undefined } | null | undefined;

/** A country's name in the widget's language (the code when the browser has no names). */
function countryName(code: string, locale: string): string {
  if (countryNames === undefined) {
    try {
      countryNames = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
    } catch {
      countryNames = null;
    }
  }
  return countryNames?.of(code) ?? code;
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Node[]): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
};

/** A labelled field: a label tied to its control by id (the name is the label's words alone, not the control's value). */
function field(text: string, control: HTMLElement, grow = false): HTMLDivElement {
  control.id = `ql-fb-${control.className}`;
  return el('div', { className: grow ? 'field grow' : 'field' }, el('label', { htmlFor: control.id, textContent: text }), control);
}

/** The text a number control sends: the number and the chosen unit ("12 ft"), or the amount alone. */
export function numberText(value: string, unit: string | undefined): string {
  return unit ? `${value} ${unit}` : value;
}

/** The text a phone control sends: the country's calling code and the national number ("+49 30 1234567"); a number typed with its own + is sent as typed. */
export function phoneText(dial: string, national: string): string {
  const n = national.trim();
  return n.startsWith('+') ? n : `${dial} ${n.replace(/^0+(?=\d)/, (z) => (dial === '+39' ? z : ''))}`;
}

/**
 * Fills `box` with the control for `input` (or hides it when there is none
 * to offer). `send` sends a value as the visitor's text. Returns whether the
 * box is shown.
 */
export function renderFallback(box: HTMLElement, input: InputHint | undefined, t: FallbackTexts, locale: string, send: (text: string) => void, chips: readonly string[] = []): boolean {
  const key = input?.offer ? `${input.key}|${input.kind}|${locale}|${chips.join('|')}` : '';
  if (box.dataset.for === key) return !box.hidden;
  const hadFocus = box.contains((box.getRootNode() as ShadowRoot | Document).activeElement);
  box.dataset.for = key;
  box.replaceChildren();
  box.hidden = true;
  if (!input?.offer) return false;
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t.group);
  box.append(el('p', { className: 'legend', textContent: t.group }));
  const controls: HTMLElement[] = [];
  let value: (() => string | null) | null = null;

  if (input.kind === 'date') {
    const date = el('input', { type: 'date', className: 'date', required: true });
    if (input.min) date.min = input.min;
    if (input.max) date.max = input.max;
    controls.push(field(t.date, date, true));
    value = () => (date.value ? date.value : null);
  } else if (input.kind === 'phone') {
    const country = el('select', { className: 'country' });
    const list = input.countries?.length ? input.countries : [];
    const named = list.map((c) => ({ ...c, name: countryName(c.code, locale) })).sort((a, b) => a.name.localeCompare(b.name, locale));
    for (const c of named) country.append(el('option', { value: c.dial, textContent: `${c.name} (${c.dial})`, selected: c.code === input.country }));
    const phone = el('input', { type: 'tel', className: 'phone', autocomplete: 'tel-national', inputMode: 'tel', required: true });
    if (named.length) controls.push(field(t.country, country));
    controls.push(field(t.phone, phone, true));
    value = () => (phone.value.trim() ? (named.length ? phoneText(country.value, phone.value) : phone.value.trim()) : null);
  } else if (input.kind === 'number') {
    const num = el('input', { type: 'number', className: 'number', inputMode: input.integer ? 'numeric' : 'decimal', required: true });
    num.step = input.integer ? '1' : 'any';
    if (input.min !== undefined) num.min = String(input.min);
    if (input.max !== undefined) num.max = String(input.max);
    controls.push(field(input.currency ? `${t.number} (${input.currency})` : t.number, num, true));
    let unit: HTMLSelectElement | null = null;
    if (input.units && input.units.length > 1) {
      const select = el('select', { className: 'unit' });
      for (const u of input.units) select.append(el('option', { value: u, textContent: u }));
      // the bounds are in the question's unit: another unit's figure is checked by the server once converted
      select.addEventListener('change', () => {
        for (const [attr, v] of [['min', input.min], ['max', input.max]] as const) {
          if (select.value === input.unit && v !== undefined) num.setAttribute(attr, String(v));
          else num.removeAttribute(attr);
        }
      });
      unit = select;
      controls.push(field(t.unit, select));
    } else if (input.unit) controls[0]!.querySelector('label')!.textContent = `${t.number} (${input.unit})`;
    value = () => (num.value.trim() ? numberText(num.value.trim(), unit ? unit.value : input.unit) : null);
  }
  box.append(...controls);
  if (value) {
    const use = el('button', { type: 'button', className: 'action', textContent: t.use });
    const go = () => {
      const v = value!();
      if (v === null) {
        (box.querySelector('input') as HTMLInputElement | null)?.focus();
        return;
      }
      send(v);
    };
    use.addEventListener('click', go);
    // Enter in a field sends, as in the textarea
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') {
        e.preventDefault();
        go();
      }
    });
    box.append(use);
  }
  if (input.optional && input.skip) {
    // a label the question's own chips already show (an optional question's re-ask has a Skip chip) is not repeated
    const shown = new Set(chips.map((c) => c.toLocaleLowerCase(locale)));
    for (const label of [t.notSure, t.skip].filter((l) => !shown.has(l.toLocaleLowerCase(locale)))) {
      const b = el('button', { type: 'button', className: 'action secondary', textContent: label });
      b.addEventListener('click', () => send(input.skip!));
      box.append(b);
    }
  }
  // option questions show their chips already: without "Not sure"/"Skip" there is nothing to add
  if (box.querySelectorAll('button').length === 0) {
    box.replaceChildren();
    return false;
  }
  box.hidden = false;
  if (hadFocus) (box.querySelector('input, select, button') as HTMLElement | null)?.focus();
  return true;
}
