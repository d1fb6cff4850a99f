import { z } from 'zod';
import { lazy } from '../shared/lazy.ts';
import type { Diagnostic } from '../flow/diagnostic.ts';
import { loadFlowFile, type SourceMap } from '../flow/load.ts';
import { BuiltInMessages } from '../flow/messages/catalogue.ts';
import { LocaleTag } from '../flow/text.ts';
import { schemaDiagnostics } from '../flow/schema-issues.ts';

// The tenant file, flows/tenants/<tenant>/tenant.json (interfaces.md): which
// flows a tenant offers, which industry packs apply, and who may call.

const Slug = lazy(() => z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lower-case letters, digits, "-" and "_", starting with a letter or digit'));

/** An allowed browser origin: scheme, host and optional port, nothing else. */
const Origin = lazy(() => z.string().refine((s) => {
  try {
    return new URL(s).origin === s;
  } catch {
    return false;
  }
}, 'an origin such as "https://example.com" or "http://localhost:3000" (no path, no trailing slash)'));

/** A cap on model calls and input+output tokens; reached, turns go to the offline rules. */
const Caps = lazy(() => z.object({ calls: z.number().int().positive().optional(), tokens: z.number().int().positive().optional() }).strict());

/** One tenant: identity, public widget keys, allowed origins, flows and packs. */
export const Tenant = lazy(() => z
  .object({
    $schema: z.string().optional(),
    id: Slug().describe('must match the folder name'),
    name: z.string().min(1),
    keys: z.array(z.string().regex(/^\S{8,200}$/, 'a public key of 8 to 200 characters without spaces')).min(1)
      .describe('public widget keys; the tenant is derived from the key'),
    origins: z.array(Origin()).describe('browser origins allowed to use the keys'),
    flows: z.array(z.string().min(1)).describe('ids of the global flows this tenant offers'),
    packs: z.array(Slug()).default([]).describe('industry packs, applied in this order'),
    webhook: z.object({ url: z.url(), secret: z.string().min(8) }).strict().optional(),
    llm: z
      .object({
        model: z.string().min(1).optional(),
        budget: Caps().optional().describe('per session (a restart does not reset it): model calls and input+output tokens'),
        daily: Caps().optional().describe('this tenant per UTC day, per server process: model calls and input+output tokens'),
      })
      .strict()
      .optional(),
    settings: z.record(z.string(), z.unknown()).optional().describe('free-form settings; passed to sessions as context'),
    messages: z.record(LocaleTag(), BuiltInMessages()).optional().describe('the built-in texts (re-asks, endings, commands) changed for every flow of this tenant, by locale'),
    variants: z
      .record(z.string().min(1), z.object({
        revision: z.string().regex(/^[0-9a-f]{8,64}$/, 'a revision hash (hex), as the Studio and the funnel show it'),
        share: z.number().min(0).max(1).describe('the share of new visitors (0 to 1) that get this revision'),
      }).strict())
      .optional()
      .describe('per flow id: a second revision served to a share of new sessions beside the current one, sticky per visitor (docs/insights.md#variants)'),
  })
  .strict());
export type Tenant = z.infer<ReturnType<typeof Tenant>>;

/** A tenant file read: the tenant when it is valid, positions in the file when it parsed. */
export type TenantResult = { tenant?: Tenant; map?: SourceMap; diagnostics: Diagnostic[] };

/** Reads and checks a tenant.json; problems are diagnostics with positions, never exceptions. */
export function loadTenantFile(file: string): TenantResult {
  const loaded = loadFlowFile(file);
  if (!loaded.ok) return { diagnostics: loaded.diagnostics };
  const map = loaded.doc.map;
  const parsed = Tenant().safeParse(loaded.doc.data);
  if (!parsed.success) return { map, diagnostics: schemaDiagnostics(parsed.error, loaded.doc) };
  return { tenant: parsed.data, map, diagnostics: [] };
}
