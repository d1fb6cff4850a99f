import type { ActionRegistry } from '../server/conversation/actions.ts';

/**
 * Handlers for the actions the shipped sample flows call, so the demo and
 * `questline chat` run them end to end. They are examples of handlers, not
 * integrations: `crm.lookup_company` derives a stable account id from the
 * company name instead of calling a CRM. Register your own in their place.
 */
export const sampleActions: ActionRegistry = {
  'crm.lookup_company': async (input) => {
    const name = String(input.company ?? input.email ?? input.phone ?? '').trim();
    if (!name) throw new Error('nothing to look the company up by');
    let h = 2166136261;
    for (const ch of name.toLowerCase()) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
    return { account_id: `ACCT-${h.toString(36).toUpperCase()}`, owner: 'Sales team' };
  },
};
