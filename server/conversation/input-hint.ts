import type * as Phones from 'libphonenumber-js';
import { lazyRequire } from '../shared/lazy-require.ts';
import { countryOf } from '../engine/extraction.ts';
import type { Session } from '../engine/session.ts';
import { normalOptions } from '../flow/answer-types.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { InputHint } from '../protocol/session.ts';

/** libphonenumber-js, loaded when a phone hint is first built, not with the server (server/shared/lazy-require.ts). */
const phones = lazyRequire<typeof Phones>('libphonenumber-js');

// What the question being asked accepts, for clients that offer a structured
// control after a reply was not understood (docs/interfaces.md "input"): the
// widget's date picker, phone field with a country selector, number field
// with a unit selector, option chips with "Not sure" / "Skip".

/** Units a visitor may pick instead of the question's own, all of them understood and converted by the parser. */
const UNIT_CHOICES: Readonly<Record<string, readonly string[]>> = {
  'm': ['m', 'cm', 'ft', 'yd'],
  'cm': ['cm', 'm', 'ft'],
  'km': ['km', 'm'],
  'm²': ['m²', 'sq ft'],
  'kg': ['kg', 'lb'],
  '°C': ['°C', '°F'],
  '°F': ['°F', '°C'],
  'days': ['days', 'weeks'],
  'weeks': ['weeks', 'days'],
  'hours': ['hours', 'minutes'],
  'minutes': ['minutes', 'hours'],
};

let countries: Array<{ code: string; dial: string }> | undefined;

/** Every country libphonenumber knows, with its calling code (made once). */
function countryList(): Array<{ code: string; dial: string }> {
  countries ??= phones().getCountries().map((code) => ({ code, dial: `+${phones().getCountryCallingCode(code)}` }));
  return countries;
}

/** The session clock's day (YYYY-MM-DD). */
const today = (s: Session) => s.now.slice(0, 10);

/** What the session's current question accepts; undefined for text questions and when no question is open. */
export function inputHint(flow: CompiledFlow, s: Session): InputHint | undefined {
  if (s.status !== 'active' || s.node === null || s.pending || s.confirming) return undefined;
  const n = flow.nodes.get(s.node)?.node;
  if (!n || n.type !== 'question') return undefined;
  const spec = n.answer;
  if (!spec) return undefined;
  const optional = n.required === false;
  const base = { key: n.key, offer: s.attempts > 0, optional, ...(optional ? { skip: flow.messages.commands_skip[0] ?? 'skip' } : {}) };
  switch (spec.type) {
    case 'date': {
      const min = [spec.min, spec.future ? today(s) : undefined].filter((d): d is string => d !== undefined).sort().at(-1);
      const max = [spec.max, spec.past ? today(s) : undefined].filter((d): d is string => d !== undefined).sort()[0];
      return { kind: 'date', ...base, ...(min ? { min } : {}), ...(max ? { max } : {}) };
    }
    case 'phone':
      return { kind: 'phone', ...base, country: countryOf(s.context) ?? flow.source.default_country ?? 'US', ...(base.offer ? { countries: countryList() } : {}) };
    case 'number':
    case 'integer':
      return {
        kind: 'number', ...base, integer: spec.type === 'integer',
        ...(spec.min !== undefined ? { min: spec.min } : {}), ...(spec.max !== undefined ? { max: spec.max } : {}),
        ...(spec.unit ? { unit: spec.unit, units: [...(UNIT_CHOICES[spec.unit] ?? [spec.unit])] } : {}),
        ...(spec.currency ? { currency: spec.currency } : {}),
      };
    case 'enum':
      return { kind: 'options', ...base, options: normalOptions(spec).map((o) => ({ value: o.value, label: o.label })), multiple: spec.multiple === true };
    case 'boolean':
      return { kind: 'options', ...base, options: [{ value: 'true', label: flow.messages.yes }, { value: 'false', label: flow.messages.no }], multiple: false };
    default:
      return undefined;
  }
}
