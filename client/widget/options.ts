import type { StorageKind } from './storage.ts';
import { chooseLocale } from './locale.ts';
import { customTexts, type Texts } from './texts.ts';
import type { ClientContext } from '../../server/protocol/index.ts';

export type Mode = 'bubble' | 'popup' | 'inline';
export type Position = 'bottom-right' | 'bottom-left';

/** What `Questline.init()` takes (also readable from `data-*` attributes on the script tag). */
export interface WidgetOptions {
  /** The tenant's public widget key (required). */
  key: string;
  /** The flow to run, e.g. `flow.sales` (required). */
  flow: string;
  /** The Questline server, with the path it is mounted under if any (`https://site/chat`); default: where widget.js was loaded from. */
  server?: string;
  /** `bubble` (a launcher button and a popup, the default), `popup` (opened by `Questline.open()`), `inline` (inside `target`). */
  mode?: Mode;
  /** Inline mode: the element (or a CSS selector) to mount the chat into. */
  target?: string | Element;
  /** Corner of the launcher and popup. */
  position?: Position;
  /** z-index of the launcher and popup (default 2147483647, the maximum). */
  zIndex?: number;
  /** Where the session is kept between page loads: `local` (default), `session` (this tab) or `none`. */
  storage?: StorageKind;
  /** The heading of the chat (default: `texts.title` in the visitor's language). */
  title?: string;
  /** The launcher's accessible name (default: `texts.launcher`). */
  launcherLabel?: string;
  /** The input's placeholder (default: `texts.placeholder`). */
  placeholder?: string;
  /** Open the chat at once (bubble and popup modes). */
  open?: boolean;
  /** Facts about the page for the flow (`context.*` in guards): flat, primitive values. */
  context?: ClientContext;
  /** The visitor's language tag, e.g. `de` or `en-GB` (default: the page's `<html lang>`, else the browser's language). */
  locale?: string;
  /** The widget's own strings, any of them (README: "Embedding the widget"). */
  texts?: Partial<Texts>;
}

export interface ResolvedOptions {
  key: string;
  flow: string;
  server: string;
  mode: Mode;
  target: string | Element | null;
  position: Position;
  zIndex: number;
  storage: StorageKind;
  title: string | undefined;
  launcherLabel: string | undefined;
  placeholder: string | undefined;
  open: boolean;
  context: ClientContext | undefined;
  /** The locale chosen on this page (the server's session state may change it later). */
  locale: string;
  /** The page's own strings only; the rest follow the locale. */
  texts: Partial<Texts>;
}

const MODES: readonly Mode[] = ['bubble', 'popup', 'inline'];
const POSITIONS: readonly Position[] = ['bottom-right', 'bottom-left'];
const STORAGES: readonly StorageKind[] = ['local', 'session', 'none'];

const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Fills defaults and checks what is required; throws with a message for the page's console. */
export function resolveOptions(o: Partial<WidgetOptions>, defaultServer: string): ResolvedOptions {
  const key = str(o.key);
  const flow = str(o.flow);
  if (!key) throw new Error('Questline: `key` (the public widget key) is required');
  if (!flow) throw new Error('Questline: `flow` (the flow to run, e.g. "flow.sales") is required');
  const mode = pick(o.mode, MODES, 'bubble');
  const z = typeof o.zIndex === 'number' ? o.zIndex : typeof o.zIndex === 'string' ? Number(o.zIndex) : NaN;
  let server = str(o.server) ?? defaultServer;
  try {
    const url = new URL(server, location.href);
    server = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    throw new Error(`Questline: \`server\` is not a URL: ${server}`);
  }
  return {
    key, flow, server, mode,
    target: o.target ?? null,
    position: pick(o.position, POSITIONS, 'bottom-right'),
    zIndex: Number.isFinite(z) ? Math.trunc(z) : 2147483647,
    storage: pick(o.storage, STORAGES, 'local'),
    title: str(o.title),
    launcherLabel: str(o.launcherLabel),
    placeholder: str(o.placeholder),
    open: o.open === true || (o.open as unknown) === 'true' || (o.open as unknown) === '',
    context: o.context && typeof o.context === 'object' ? o.context : undefined,
    locale: chooseLocale(o.locale, document.documentElement.lang, navigator.language),
    texts: customTexts(o.texts),
  };
}

/** Options from attributes: `data-*` on the script tag or plain ones on `<questline-chat>`. */
export function optionsFromAttributes(get: (name: string) => string | null): Partial<WidgetOptions> {
  const out: Partial<WidgetOptions> = {};
  const set = <K extends keyof WidgetOptions>(k: K, name: string) => {
    const v = get(name);
    if (v !== null) (out as Record<string, unknown>)[k] = v;
  };
  set('key', 'key');
  set('flow', 'flow');
  set('server', 'server');
  set('mode', 'mode');
  set('target', 'target');
  set('position', 'position');
  set('zIndex', 'z-index');
  set('storage', 'storage');
  set('title', 'title');
  set('title', 'chat-title');
  set('launcherLabel', 'launcher-label');
  set('placeholder', 'placeholder');
  set('open', 'open');
  set('locale', 'locale');
  return out;
}
