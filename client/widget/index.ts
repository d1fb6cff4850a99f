// The embeddable chat widget, served as /widget.js.
//
//   <script async src="https://HOST/widget.js" data-key="pk_…" data-flow="flow.sales"></script>
//
// or, to call the API before the script has loaded, the queue stub (README,
// "Embedding the widget") followed by `Questline.init({ … })`. This file
// replaces the stub's methods with the real ones and replays what was queued.

import { mountBase } from './mount-base.ts';
import { defineElement, QuestlineChat, TAG, type WidgetEventName } from './element.ts';
import { optionsFromAttributes, type WidgetOptions } from './options.ts';

export type { WidgetOptions } from './options.ts';

type Handler = (detail: unknown) => void;

/** The global `Questline` object. */
export interface QuestlineApi {
  version: string;
  /** Creates the chat (replacing an earlier one) and returns its element. */
  init(options: Partial<WidgetOptions>): QuestlineChat | null;
  open(): void;
  close(): void;
  toggle(): void;
  /** Starts the conversation over (asks the visitor first when something was answered). */
  restart(): void;
  /** Forgets the stored session and starts a new conversation (no question asked). */
  reset(): void;
  /** Removes the chat from the page (the stored session stays). */
  destroy(): void;
  /** Listens to `open`, `close`, `message`, `state`, `end`, `session` or `connection`; returns a function that stops listening. */
  on(event: WidgetEventName, handler: Handler): () => void;
  /** The chat element, once `init` has run. */
  element: QuestlineChat | null;
  /** The queue of the stub: calls made before this script loaded. */
  q?: Array<[string, ArrayLike<unknown>]>;
}

declare global {
  interface Window {
    Questline?: Partial<QuestlineApi>;
  }
}

const VERSION = '1.0.0';

// where this script came from is the default server (only readable while the script first runs)
const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
// (with the path it is mounted under: https://site/chat for https://site/chat/widget.js)
const scriptOrigin = mountBase(script?.src, 'widget.js');

const listeners = new Map<WidgetEventName, Set<Handler>>();
let current: QuestlineChat | null = null;
/** Calls that came before the chat existed, replayed once it does. */
let deferred: Array<() => void> = [];

const whenReady = (fn: () => void) => {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fn, { once: true });
  else fn();
};

const scriptDefaults: Partial<WidgetOptions> = script ? optionsFromAttributes((n) => script.getAttribute(`data-${n}`)) : {};

function mount(el: QuestlineChat, options: Partial<WidgetOptions>): void {
  whenReady(() => {
    if (current !== el) return; // replaced meanwhile
    if (options.mode === 'inline') {
      const target = typeof options.target === 'string' ? document.querySelector(options.target) : options.target;
      if (!target) {
        console.error(`Questline: inline mode needs \`target\`, an element or a selector that matches one (got ${String(options.target)})`);
        return;
      }
      target.append(el);
    } else {
      document.body.append(el);
    }
    const calls = deferred;
    deferred = [];
    for (const call of calls) call();
  });
}

const api: QuestlineApi = {
  version: VERSION,
  element: null,
  init(options) {
    defineElement();
    removeCurrent();
    const merged: Partial<WidgetOptions> = { ...scriptDefaults, ...(options ?? {}) };
    const el = document.createElement(TAG) as QuestlineChat;
    el.onWidgetEvent = (name, detail) => {
      for (const h of listeners.get(name) ?? []) h(detail);
    };
    el.configure(merged);
    current = el;
    api.element = el;
    mount(el, merged);
    return el;
  },
  open: () => call((el) => el.open()),
  close: () => call((el) => el.close()),
  toggle: () => call((el) => el.toggle()),
  restart: () => call((el) => el.restart()),
  reset: () => call((el) => el.reset()),
  destroy() {
    deferred = [];
    removeCurrent();
  },
  on(event, handler) {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(handler);
    return () => set!.delete(handler);
  },
};

function removeCurrent(): void {
  if (current) {
    current.onWidgetEvent = null;
    current.remove();
  }
  current = null;
  api.element = null;
}

/** Runs `fn` on the chat now, or once it is on the page. */
function call(fn: (el: QuestlineChat) => void): void {
  const el = current;
  if (el && el.isConnected) fn(el);
  else if (el) deferred.push(() => fn(el));
  else deferred.push(() => current && fn(current));
}

function boot(): void {
  QuestlineChat.defaultServer = scriptOrigin;
  defineElement();
  const existing = window.Questline;
  if (existing && typeof existing.init === 'function' && existing.version) return; // loaded twice: the first one stays
  const queue = existing && Array.isArray(existing.q) ? existing.q : [];
  // keep the page's object (it may hold a reference to it) and give it the real methods
  const target = (existing ?? {}) as QuestlineApi;
  Object.assign(target, api, { q: undefined });
  delete target.q;
  Object.defineProperty(target, 'element', { get: () => current, configurable: true, enumerable: true });
  window.Questline = target;
  const hasInit = queue.some(([name]) => name === 'init');
  if (!hasInit && scriptDefaults.key) api.init({});
  for (const [name, args] of queue) {
    const fn = (api as unknown as Record<string, unknown>)[name];
    if (typeof fn === 'function') (fn as (...a: unknown[]) => unknown).apply(api, Array.from(args));
    else console.error(`Questline: unknown method ${name}`);
  }
}

boot();
