import { Conversation, type ConnectionState, type Problem } from './conversation.ts';
import { loadSocketIo } from './load-socket.ts';
import { optionsFromAttributes, resolveOptions, type ResolvedOptions, type WidgetOptions } from './options.ts';
import { sessionMemory } from './storage.ts';
import { CSS as BASE_CSS } from './styles.ts';
import { FALLBACK_CSS, fallbackTexts, renderFallback } from './fallback-input.ts';
import { loadTranslations } from './load-texts.ts';
import { isRtl, isTranslated, textsFor, uiLocale, type Translations } from './locale.ts';
import { fill, type Texts } from './texts.ts';
import type { SessionState, Status, WireMessage } from '../../server/protocol/index.ts';
// run-time values from the zod-free files, not index.ts: zod stays out of the bundle
import { LIMITS } from '../../server/protocol/limits.ts';
import { isEnded } from '../../server/protocol/statuses.ts';

// <questline-chat>: the chat UI in an open shadow root. Everything the server
// sends is put on the page with textContent, never parsed as HTML; the only
// markup is the static skeleton below.

export const TAG = 'questline-chat';

/** Events the element fires (as `questline:NAME` DOM events and through `Questline.on(NAME)`). */
export type WidgetEventName = 'open' | 'close' | 'message' | 'state' | 'end' | 'session' | 'connection';

const ICON = {
  chat: 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z',
  back: 'M10 5 3 12l7 7 1.4-1.4L6.8 13H21v-2H6.8l4.6-4.6z',
  restart: 'M12 4a8 8 0 1 0 8 8h-2a6 6 0 1 1-1.76-4.24L14 10h6V4l-2.35 2.35A7.96 7.96 0 0 0 12 4z',
  close: 'M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z',
  send: 'M3 20.5 21 12 3 3.5 3 10l12 2-12 2z',
};
const CSS = BASE_CSS + FALLBACK_CSS;

const svg = (d: string) => `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${d}"/></svg>`;

const SKELETON = `
<div class="root" part="root">
  <button class="launcher" part="launcher" type="button" aria-expanded="false" aria-haspopup="dialog" aria-controls="ql-panel">${svg(ICON.chat)}<span class="dot" part="unread" hidden></span></button>
  <section class="panel" id="ql-panel" part="panel" aria-labelledby="ql-title">
    <header part="header">
      <h2 id="ql-title" part="title"></h2>
      <button class="tool back" part="button back" type="button">${svg(ICON.back)}<span></span></button>
      <button class="tool restart" part="button restart" type="button">${svg(ICON.restart)}<span></span></button>
      <button class="tool close" part="button close" type="button">${svg(ICON.close)}</button>
    </header>
    <div class="progress" part="progress">
      <div class="track" role="progressbar" aria-valuemin="0" aria-valuemax="1" aria-valuenow="0"><div class="bar" part="progress-bar"></div></div>
      <div class="label" part="progress-label" aria-hidden="true"></div>
    </div>
    <div class="conn" part="connection" role="status" hidden></div>
    <div class="log" part="log" role="log" aria-live="polite" aria-relevant="additions" tabindex="0">
      <div class="history" aria-live="off"></div>
      <div class="live"></div>
      <div class="typing" part="typing" hidden><span class="sr"></span><i></i><i></i><i></i></div>
    </div>
    <div class="chips" part="chips" role="group" hidden></div>
    <div class="fallback" part="fallback" hidden></div>
    <div class="confirm" part="confirm" hidden>
      <p></p>
      <button class="action yes" type="button"></button>
      <button class="action secondary no" type="button"></button>
    </div>
    <div class="end" part="end" hidden><p><strong></strong><span></span></p><button class="action again" type="button"></button></div>
    <p class="error" part="error" role="alert" hidden></p>
    <form part="composer" novalidate>
      <label class="sr" for="ql-input"></label>
      <textarea id="ql-input" part="input" rows="1" maxlength="${LIMITS.textChars}" autocomplete="off" enterkeyhint="send"></textarea>
      <button class="send" part="send" type="submit">${svg(ICON.send)}</button>
    </form>
  </section>
</div>`;

/**
 * True when the visitor can no longer write. An escalated session has ended
 * for the bot, but a person takes it over and still reads the visitor's
 * messages, so its input stays open.
 */
const closed = (s: Pick<SessionState, 'status' | 'closed' | 'resumable'>): boolean =>
  // a conversation that went idle stays open to writing while it can be picked up again
  s.resumable !== true && ((isEnded(s.status) && s.status !== 'escalated') || s.closed === true);

const endText = (t: Texts, status: Status, shut = false, paused = false): [string, string] | undefined =>
  status === 'completed' ? [t.completedTitle, t.completedText]
    : paused ? [t.pausedTitle, t.pausedText]
    // an escalation the team closed: over, like any closed conversation
    : status === 'escalated' && shut ? [t.abandonedTitle, t.abandonedText]
    : status === 'escalated' ? [t.escalatedTitle, t.escalatedText]
      : status === 'waiting' ? [t.waitingTitle, t.waitingText]
        : status === 'abandoned' ? [t.abandonedTitle, t.abandonedText]
          : status === 'error' ? [t.errorTitle, t.errorText]
            : undefined;

const connectionText = (t: Texts, c: ConnectionState): string =>
  ({ connecting: t.connecting, online: '', reconnecting: t.reconnecting, offline: t.offline, failed: t.unavailable })[c];

/** The warning triangle beside safety advice (decorative: the label says it in words). */
const ALERT_ICON = '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2 1 21h22L12 2zm0 4.2L19.5 19h-15L12 6.2zM11 10v5h2v-5h-2zm0 6v2h2v-2h-2z"/></svg>';

const who = (t: Texts, role: WireMessage['role']): string => (role === 'bot' ? t.assistant : role === 'user' ? t.you : t.teamMember);

/** The widget's translations once /widget-texts.js has loaded (null until a widget needs them). */
let translations: Translations | null = null;

let sheet: CSSStyleSheet | null = null;
function styleRoot(root: ShadowRoot): void {
  try {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
    }
    root.adoptedStyleSheets = [sheet];
  } catch {
    // browsers without constructable stylesheets
    const style = document.createElement('style');
    style.textContent = CSS;
    root.prepend(style);
  }
}

export class QuestlineChat extends HTMLElement {
  /** Where widget.js came from: the default server. Set once by the entry point. */
  static defaultServer = '';

  /** Called for every widget event (the global API's `on`). */
  onWidgetEvent: ((name: WidgetEventName, detail: unknown) => void) | null = null;

  private options: ResolvedOptions | null = null;
  private configured: Partial<WidgetOptions> | null = null;
  private conversation: Conversation | null = null;
  private ui: ReturnType<QuestlineChat['build']> | null = null;
  private isOpen = false;
  private returnFocus: HTMLElement | null = null;
  private readonly shown = new Map<number, HTMLElement>();
  private readonly pendingEls = new Map<string, HTMLElement>();
  private latest: WireMessage | null = null;
  private state: SessionState | null = null;
  private picked = new Set<string>();
  private connTimer: ReturnType<typeof setTimeout> | undefined;
  private announcedEnd: Status | null = null;
  /** Whether the transcript is scrolled to its end (new lines then keep it there). */
  private stick = true;
  private resizer: ResizeObserver | null = null;
  private serverTyping = false;
  private localTyping = false;
  private replyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The locale the widget's own texts are in: the page's, or the session's once the visitor switched language. */
  private locale = 'en';
  private texts: Texts | null = null;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  /** Configures the element (the global API calls this before inserting it). */
  configure(options: Partial<WidgetOptions>): void {
    this.configured = options;
    if (this.isConnected) this.setup();
  }

  connectedCallback(): void {
    this.setup();
  }

  disconnectedCallback(): void {
    this.teardown();
  }

  /** Opens the chat (bubble and popup modes) and moves focus into it. */
  open(focus = true): void {
    const ui = this.ui;
    if (!ui || !this.options || this.options.mode === 'inline') return;
    this.conversation?.connect();
    if (this.isOpen) {
      if (focus) this.focusInput();
      return;
    }
    const active = document.activeElement;
    this.returnFocus = active instanceof HTMLElement && active !== this ? active : null;
    this.isOpen = true;
    ui.panel.hidden = false;
    ui.root.classList.add('open');
    ui.launcher.setAttribute('aria-expanded', 'true');
    ui.dot.hidden = true;
    ui.launcher.setAttribute('aria-label', this.launcherLabel);
    this.conversation?.rememberOpen(true);
    this.scrollDown(true);
    if (focus) this.focusInput();
    this.emit('open', {});
  }

  /** Closes the chat; focus goes back to the launcher (or where it was before). */
  close(): void {
    const ui = this.ui;
    if (!ui || !this.options || this.options.mode === 'inline' || !this.isOpen) return;
    const hadFocus = this.shadowRoot!.activeElement !== null;
    this.isOpen = false;
    ui.panel.hidden = true;
    ui.root.classList.remove('open');
    ui.launcher.setAttribute('aria-expanded', 'false');
    this.hideConfirm();
    this.conversation?.rememberOpen(false);
    if (hadFocus) {
      if (this.options.mode === 'bubble') ui.launcher.focus();
      else this.returnFocus?.focus();
    }
    this.emit('close', {});
  }

  toggle(): void {
    if (this.isOpen) this.close();
    else this.open();
  }

  /** Starts the conversation over (asks first when something was answered). */
  restart(): void {
    if (!this.ui) return;
    if ((this.state?.progress.answered ?? 0) > 0 && !(this.state && closed(this.state))) {
      this.ui.confirm.hidden = false;
      this.ui.confirmYes.focus();
      return;
    }
    this.doRestart();
  }

  private get t(): Texts {
    return this.texts!;
  }

  private get launcherLabel(): string {
    return this.options!.launcherLabel ?? this.t.launcher;
  }

  private get placeholder(): string {
    return this.options!.placeholder ?? this.t.placeholder;
  }

  /** Forgets the stored session and starts a brand-new conversation. */
  reset(): void {
    this.hideConfirm();
    this.conversation?.startOver();
  }

  /** The current session, for the host page (null before one starts). */
  get session(): { sessionId: string; token: string } | null {
    return this.sessionInfo;
  }
  private sessionInfo: { sessionId: string; token: string } | null = null;

  // --- setup ---------------------------------------------------------------

  private setup(): void {
    this.teardown();
    const raw = this.configured ?? optionsFromAttributes((n) => this.getAttribute(n));
    if (!raw.key && !raw.flow) return; // not configured yet
    let options: ResolvedOptions;
    try {
      options = resolveOptions(raw, QuestlineChat.defaultServer || location.origin);
    } catch (err) {
      console.error(err instanceof Error ? err.message : err);
      return;
    }
    this.options = options;
    this.useLocale(options.locale);
    this.setAttribute('data-mode', options.mode);
    const root = this.shadowRoot!;
    root.replaceChildren();
    styleRoot(root);
    const tpl = document.createElement('template');
    tpl.innerHTML = SKELETON;
    root.append(tpl.content.cloneNode(true));
    const ui = this.build(root, options);
    this.ui = ui;

    const slot = `${options.server}|${options.key}|${options.flow}`;
    this.conversation = new Conversation(
      { server: options.server, key: options.key, flow: options.flow, memory: sessionMemory(options.storage, slot), ...(options.context ? { context: options.context } : {}), locale: options.locale },
      {
        message: (m, live) => this.onMessage(m, live),
        pending: (clientId, text) => this.onPending(clientId, text),
        refused: (clientId, error) => this.onRefused(clientId, error),
        // screen readers hold the log's announcements until the turn's lines are all in, then read them together
        busy: (on) => this.ui?.log.setAttribute('aria-busy', String(on)),
        typing: (on) => this.onTyping(on),
        state: (s) => this.onState(s),
        connection: (c, e) => this.onConnection(c, e),
        problem: (e) => this.showProblem(e),
        session: (s) => {
          this.sessionInfo = s;
          this.emit('session', s);
        },
        cleared: (floor) => this.onCleared(floor),
      },
    );
    if (options.mode === 'inline') {
      this.conversation.connect();
    } else {
      const reopen = this.conversation.wasOpen;
      if (options.open || reopen) this.open(false); // opened by the page, not the visitor: focus stays where it is
      // a stored session is resumed at once, so the launcher can show news
      else if (this.conversation.hasSession) this.conversation.connect();
    }
  }

  private teardown(): void {
    this.resizer?.disconnect();
    this.resizer = null;
    this.conversation?.destroy();
    this.conversation = null;
    clearTimeout(this.connTimer);
    clearTimeout(this.replyTimer);
    this.serverTyping = false;
    this.localTyping = false;
    this.ui = null;
    this.isOpen = false;
    this.shown.clear();
    this.pendingEls.clear();
    this.latest = null;
    this.state = null;
    this.announcedEnd = null;
    this.sessionInfo = null;
  }

  private build(root: ShadowRoot, o: ResolvedOptions) {
    const q = <T extends Element>(sel: string) => root.querySelector(sel) as T;
    const ui = {
      root: q<HTMLDivElement>('.root'),
      launcher: q<HTMLButtonElement>('.launcher'),
      dot: q<HTMLSpanElement>('.launcher .dot'),
      panel: q<HTMLElement>('.panel'),
      title: q<HTMLHeadingElement>('#ql-title'),
      back: q<HTMLButtonElement>('.back'),
      restart: q<HTMLButtonElement>('.restart'),
      close: q<HTMLButtonElement>('.close'),
      progress: q<HTMLDivElement>('.progress'),
      track: q<HTMLDivElement>('.track'),
      bar: q<HTMLDivElement>('.bar'),
      progressLabel: q<HTMLDivElement>('.progress .label'),
      conn: q<HTMLDivElement>('.conn'),
      log: q<HTMLDivElement>('.log'),
      history: q<HTMLDivElement>('.history'),
      live: q<HTMLDivElement>('.live'),
      typing: q<HTMLDivElement>('.typing'),
      chips: q<HTMLDivElement>('.chips'),
      fallback: q<HTMLDivElement>('.fallback'),
      confirm: q<HTMLDivElement>('.confirm'),
      confirmYes: q<HTMLButtonElement>('.confirm .yes'),
      confirmNo: q<HTMLButtonElement>('.confirm .no'),
      end: q<HTMLDivElement>('.end'),
      endTitle: q<HTMLElement>('.end strong'),
      endText: q<HTMLSpanElement>('.end span'),
      again: q<HTMLButtonElement>('.end .again'),
      error: q<HTMLParagraphElement>('.error'),
      form: q<HTMLFormElement>('form'),
      input: q<HTMLTextAreaElement>('textarea'),
      send: q<HTMLButtonElement>('.send'),
      label: q<HTMLLabelElement>('label'),
    };
    const floating = o.mode !== 'inline';
    ui.root.classList.add(`mode-${o.mode}`, o.position === 'bottom-left' ? 'left' : 'right');
    if (o.mode === 'bubble') ui.root.classList.add('floating');
    ui.root.style.setProperty('--_z', String(o.zIndex));
    ui.back.disabled = true;
    ui.restart.disabled = true;
    if (floating) {
      ui.panel.setAttribute('role', 'dialog');
      ui.panel.setAttribute('aria-modal', 'false');
      ui.panel.hidden = true;
    } else {
      ui.panel.setAttribute('role', 'region');
      ui.close.remove();
    }
    if (o.mode !== 'bubble') ui.launcher.remove();

    ui.launcher.addEventListener('click', () => this.toggle());
    // a pointer over the launcher or focus on it: fetch the socket client before the click
    const prefetch = () => void loadSocketIo(o.server).catch(() => undefined);
    ui.launcher.addEventListener('pointerenter', prefetch, { once: true });
    ui.launcher.addEventListener('focus', prefetch, { once: true });
    ui.close.addEventListener('click', () => this.close());
    ui.back.addEventListener('click', () => {
      this.hideConfirm();
      this.conversation?.back();
      this.focusInput();
    });
    ui.restart.addEventListener('click', () => this.restart());
    ui.confirmYes.addEventListener('click', () => this.doRestart());
    ui.confirmNo.addEventListener('click', () => {
      this.hideConfirm();
      this.focusInput();
    });
    ui.again.addEventListener('click', () => {
      this.conversation?.startOver();
      this.focusInput();
    });
    ui.panel.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      if (!ui.confirm.hidden) {
        e.stopPropagation();
        this.hideConfirm();
        this.focusInput();
        return;
      }
      if (floating) {
        e.stopPropagation();
        this.close();
      }
    });
    ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(ui.input.value);
    });
    ui.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submit(ui.input.value);
      }
    });
    ui.input.addEventListener('input', () => this.autosize());
    ui.log.addEventListener('scroll', () => {
      this.stick = ui.log.scrollHeight - ui.log.scrollTop - ui.log.clientHeight < 40;
    }, { passive: true });
    // the log shrinks when a banner, chips or a taller input appear: keep the newest line in view
    if (typeof ResizeObserver === 'function') {
      this.resizer?.disconnect();
      this.resizer = new ResizeObserver(() => {
        if (this.stick) ui.log.scrollTop = ui.log.scrollHeight;
      });
      for (const el of [ui.log, ui.history, ui.live]) this.resizer.observe(el);
    }
    this.ui = ui;
    this.applyTexts();
    return ui;
  }

  /** Puts the widget's own texts and direction for the current locale on the page (at setup and when the session's locale changes). */
  private applyTexts(): void {
    const ui = this.ui;
    if (!ui) return;
    const t = this.t;
    ui.root.lang = this.locale;
    ui.root.dir = isRtl(this.locale) ? 'rtl' : 'ltr';
    ui.title.textContent = this.options!.title ?? t.title;
    ui.back.querySelector('span')!.textContent = t.back;
    ui.back.title = t.backHint;
    ui.restart.querySelector('span')!.textContent = t.restart;
    ui.restart.title = t.restartHint;
    ui.close.setAttribute('aria-label', t.close);
    ui.close.title = t.close;
    ui.track.setAttribute('aria-label', t.progressLabel);
    ui.log.setAttribute('aria-label', t.log);
    ui.typing.querySelector('span')!.textContent = t.typing;
    ui.confirm.querySelector('p')!.textContent = t.confirmRestart;
    ui.confirmYes.textContent = t.confirmYes;
    ui.confirmNo.textContent = t.confirmNo;
    ui.again.textContent = t.newConversation;
    ui.label.textContent = t.inputLabel;
    ui.send.setAttribute('aria-label', t.send);
    ui.launcher.setAttribute('aria-label', ui.dot.hidden ? this.launcherLabel : `${this.launcherLabel} (${t.newMessage})`);
    ui.input.placeholder = this.state && closed(this.state) ? t.endedPlaceholder : this.placeholder;
    for (const el of Array.from(ui.root.querySelectorAll<HTMLElement>('.msg'))) {
      const label = el.querySelector<HTMLElement>(':scope > .who, :scope > .sr');
      const role = el.classList.contains('bot') ? 'bot' : el.classList.contains('user') ? 'user' : 'operator';
      if (label) label.textContent = role === 'operator' ? t.teamMember : `${who(t, role)}:`;
      const alert = el.querySelector<HTMLElement>('.alert-label > span');
      if (alert) alert.textContent = t.alert;
    }
    const s = this.state;
    if (s) {
      this.showProgress(s.progress, s.status === 'completed');
      const end = endText(t, s.status);
      if (end) [ui.endTitle.textContent, ui.endText.textContent] = end;
    }
    // chips are rebuilt with the new words (a multiple choice in progress starts over)
    ui.chips.dataset.for = '';
    this.renderChips();
  }

  /** Follows the session's locale once the visitor has switched language (else the page's stays). */
  private followLocale(s: SessionState): void {
    if (!this.options) return;
    const next = uiLocale(this.options.locale, this.conversation?.startedLocale, s.locale);
    if (next === this.locale) return;
    this.useLocale(next);
    this.applyTexts();
  }

  /** Switches the widget's own texts to a locale; its translations are fetched first when not yet loaded (English meanwhile). */
  private useLocale(locale: string): void {
    const o = this.options!;
    this.locale = locale;
    this.texts = textsFor(locale, o.texts, translations);
    if (translations || !isTranslated(locale)) return;
    loadTranslations(o.server).then((loaded) => {
      translations = loaded;
      if (this.options !== o) return; // set up anew meanwhile
      this.texts = textsFor(this.locale, o.texts, loaded);
      this.applyTexts();
    }, (err: unknown) => console.warn(`questline: the widget's texts stay in English (${err instanceof Error ? err.message : String(err)})`));
  }

  // --- conversation events -------------------------------------------------

  private submit(text: string): void {
    const ui = this.ui;
    if (!ui || !text.trim() || ui.input.disabled) return;
    this.conversation?.send(text);
    ui.input.value = '';
    this.autosize();
  }

  private onPending(clientId: string, text: string): void {
    const ui = this.ui;
    if (!ui) return;
    const el = this.messageEl({ role: 'user', text }, true);
    el.classList.add('pending');
    el.dataset.clientId = clientId;
    this.pendingEls.set(clientId, el);
    ui.live.append(el);
    this.expectReply(true);
    this.renderChips();
    this.scrollDown(true);
  }

  private onRefused(clientId: string, error: Problem): void {
    this.expectReply(false);
    // a paused conversation whose time to pick it up has passed: closed now, the button starts a new one
    if (error.code === 'session_ended' && this.state?.resumable) {
      const { resumable: _r, ...over } = this.state;
      this.onState(over);
    }
    const el = this.pendingEls.get(clientId);
    if (!el) return this.showProblem(error);
    this.pendingEls.delete(clientId);
    el.classList.remove('pending');
    el.classList.add('failed');
    const note = document.createElement('p');
    note.className = 'note';
    // an ended or full conversation is not a failure to retry: say so politely instead of "Not sent"
    note.textContent = this.problemText(error) ?? fill(this.t.notSent, { reason: error.message });
    el.append(note);
    this.renderChips();
  }

  private onMessage(m: WireMessage, live: boolean): void {
    const ui = this.ui;
    if (!ui || this.shown.has(m.id)) return;
    let el = m.role === 'user' && m.clientId ? this.pendingEls.get(m.clientId) : undefined;
    if (el) {
      this.pendingEls.delete(m.clientId!);
      el.classList.remove('pending');
      if (m.kind) el.dataset.kind = m.kind;
      el.dataset.id = String(m.id);
      // it may have been overtaken by lines the server committed first
      this.place(el, m.id, el.parentElement === ui.history ? ui.history : ui.live);
    } else {
      el = this.messageEl(m, live);
      el.dataset.id = String(m.id);
      this.place(el, m.id, live ? ui.live : ui.history);
    }
    this.shown.set(m.id, el);
    if (m.role !== 'user' && live) this.expectReply(false);
    if (!this.latest || m.id > this.latest.id) this.latest = m;
    if (m.progress) this.showProgress(m.progress);
    if (live && m.role !== 'user' && !this.isOpen && this.options?.mode === 'bubble') {
      ui.dot.hidden = false;
      ui.launcher.setAttribute('aria-label', `${this.launcherLabel} (${this.t.newMessage})`);
    }
    this.renderChips();
    this.scrollDown(m.role === 'user');
    this.emit('message', m);
  }

  /** Puts a message in id order inside its container, before any not yet confirmed. */
  private place(el: HTMLElement, id: number, container: HTMLElement): void {
    let before: Element | null = null;
    for (const child of Array.from(container.children)) {
      if (child === el) continue;
      const cid = (child as HTMLElement).dataset.id;
      if (cid === undefined || Number(cid) > id) {
        before = child;
        break;
      }
    }
    if (el.parentElement === container && el.nextElementSibling === before) return;
    container.insertBefore(el, before);
  }

  private messageEl(m: Pick<WireMessage, 'role' | 'text'> & Partial<WireMessage>, animate: boolean): HTMLElement {
    const el = document.createElement('div');
    el.className = `msg ${m.role}`;
    el.setAttribute('part', `message message-${m.role}${m.kind === 'invalid' ? ' message-invalid' : ''}`);
    if (m.kind) {
      el.dataset.kind = m.kind;
      if (m.kind === 'invalid') el.classList.add('invalid');
    }
    if (animate) el.classList.add('new');
    const label = document.createElement('span');
    if (m.role === 'operator') {
      label.className = 'who';
      label.textContent = this.t.teamMember;
    } else {
      label.className = 'sr';
      label.textContent = `${who(this.t, m.role)}:`;
    }
    const bubble = document.createElement('div');
    bubble.className = 'bubble';
    bubble.setAttribute('part', 'bubble');
    bubble.textContent = m.text; // text, never HTML
    if (m.tone === 'alert') {
      // safety advice: a warning icon and a label in words (not colour alone); announced at once when it arrives, not when history is redrawn
      el.classList.add('alert');
      el.setAttribute('part', 'message message-bot message-alert');
      if (animate) el.setAttribute('role', 'alert');
      const head = document.createElement('span');
      head.className = 'alert-label';
      head.setAttribute('part', 'alert-label');
      head.innerHTML = ALERT_ICON; // a constant of this file, no outside text
      const words = document.createElement('span');
      words.textContent = this.t.alert;
      head.append(words);
      bubble.prepend(head);
    }
    el.append(label, bubble);
    return el;
  }

  private onTyping(on: boolean): void {
    this.serverTyping = on;
    this.renderTyping();
  }

  /**
   * The dots show while the server says a turn is running (it only says so
   * for slow turns), and from shortly after the visitor sends until the turn's
   * state arrives (a slow network).
   */
  private expectReply(on: boolean): void {
    clearTimeout(this.replyTimer);
    if (!on) {
      this.localTyping = false;
      this.renderTyping();
      return;
    }
    this.replyTimer = setTimeout(() => {
      this.localTyping = Boolean(this.conversation?.connected);
      this.renderTyping();
    }, 400);
  }

  private renderTyping(): void {
    if (!this.ui) return;
    const on = this.serverTyping || this.localTyping;
    if (this.ui.typing.hidden === !on) return;
    this.ui.typing.hidden = !on;
    if (on) this.scrollDown(false);
  }

  private onState(s: SessionState): void {
    const ui = this.ui;
    if (!ui) return;
    this.state = s;
    this.followLocale(s);
    if (this.pendingEls.size === 0) this.expectReply(false); // the turn is over
    this.showProgress(s.progress, s.status === 'completed');
    // handed over or ended early: "3 of 3 answered" would mislead
    ui.progress.hidden = isEnded(s.status) && s.status !== 'completed';
    const shut = closed(s);
    ui.input.disabled = shut;
    ui.send.disabled = shut;
    ui.input.placeholder = shut ? this.t.endedPlaceholder : this.placeholder;
    ui.back.disabled = shut || s.status !== 'active' || s.progress.answered === 0;
    ui.restart.disabled = false;
    const end = endText(this.t, s.status, shut, s.resumable === true);
    ui.end.hidden = !end;
    if (end) {
      ui.endTitle.textContent = end[0];
      ui.endText.textContent = end[1];
      ui.again.hidden = !isEnded(s.status);
      // a role=status region announces its change once
      ui.end.setAttribute('role', 'status');
      if (shut && this.shadowRoot!.activeElement === ui.input) ui.again.focus();
    }
    this.renderChips();
    this.emit('state', s);
    if (isEnded(s.status)) {
      if (this.announcedEnd !== s.status) this.emit('end', { status: s.status });
      this.announcedEnd = s.status;
    } else this.announcedEnd = null;
    this.scrollDown(false);
  }

  private showProgress(p: { answered: number; total: number }, done = false): void {
    const ui = this.ui;
    if (!ui) return;
    const total = Math.max(p.total, p.answered, 0);
    const pct = done ? 100 : total > 0 ? Math.round((100 * p.answered) / total) : 0;
    ui.bar.style.width = `${pct}%`;
    ui.track.setAttribute('aria-valuemax', String(done ? Math.max(total, 1) : Math.max(total, 1)));
    ui.track.setAttribute('aria-valuenow', String(done ? Math.max(total, 1) : p.answered));
    const text = done ? this.t.progressDone : total > 0 ? fill(this.t.progress, { answered: p.answered, total }) : '';
    ui.track.setAttribute('aria-valuetext', text || this.t.notStarted);
    ui.progressLabel.textContent = text;
  }

  private onConnection(c: ConnectionState, error?: Problem): void {
    const ui = this.ui;
    if (!ui) return;
    clearTimeout(this.connTimer);
    const show = () => {
      const text = connectionText(this.t, c);
      ui.conn.textContent = text;
      ui.conn.classList.toggle('failed', c === 'failed');
      ui.conn.hidden = !text;
    };
    // a quick connection shows nothing; a slow one says so
    if (c === 'connecting' || c === 'reconnecting') this.connTimer = setTimeout(show, c === 'connecting' ? 1_000 : 600);
    else show();
    if (c === 'failed') {
      // the reason (an unknown flow, a refused origin…) is for the page's developer: the console, never the visitor
      if (error) console.warn(`questline: the chat cannot start: ${error.code ? `${error.code}: ` : ''}${error.message}`);
      ui.input.disabled = true;
      ui.send.disabled = true;
    }
    this.emit('connection', { state: c, ...(error ? { error } : {}) });
  }

  /** The widget's own words for a refusal the visitor cannot fix by sending again, if it is one. */
  private problemText(e: Problem): string | undefined {
    return e.code === 'session_ended' ? this.t.sessionEnded : e.code === 'session_full' ? this.t.sessionFull : undefined;
  }

  private showProblem(e: Problem | null): void {
    const ui = this.ui;
    if (!ui) return;
    ui.error.textContent = !e ? '' : e.code === 'offline' ? this.t.notConnected : e.code === 'timeout' ? this.t.noAnswer : this.problemText(e) ?? e.message;
    ui.error.hidden = !e;
  }

  private onCleared(floor: number): void {
    const ui = this.ui;
    if (!ui) return;
    for (const [id, el] of this.shown) {
      if (id <= floor) {
        el.remove();
        this.shown.delete(id);
      }
    }
    for (const el of this.pendingEls.values()) el.remove();
    this.pendingEls.clear();
    for (const el of Array.from(ui.live.querySelectorAll('.msg.failed'))) el.remove();
    if (this.latest && this.latest.id <= floor) this.latest = null;
    ui.end.hidden = true;
    ui.progress.hidden = false;
    this.showProblem(null);
    this.showProgress({ answered: 0, total: 0 });
    this.renderChips();
  }

  private doRestart(): void {
    this.hideConfirm();
    this.conversation?.restart();
    this.focusInput();
  }

  private hideConfirm(): void {
    if (this.ui) this.ui.confirm.hidden = true;
  }

  /** Quick replies of the newest question, while nothing of the visitor's is pending. */
  private renderChips(): void {
    const ui = this.ui;
    if (!ui) return;
    this.renderFallback();
    const m = this.latest;
    const replies = m && m.role === 'bot' && m.quickReplies && m.quickReplies.length ? m.quickReplies : null;
    const usable = replies && this.pendingEls.size === 0 && !(this.state && closed(this.state));
    const key = usable ? `${m!.id}` : '';
    if (ui.chips.dataset.for === key) return;
    const hadFocus = ui.chips.contains(this.shadowRoot!.activeElement);
    ui.chips.dataset.for = key;
    ui.chips.replaceChildren();
    this.picked = new Set();
    ui.chips.hidden = !usable;
    if (!usable) {
      if (hadFocus) this.focusInput();
      return;
    }
    const multiple = Boolean(m!.multiple);
    ui.chips.setAttribute('aria-label', multiple ? this.t.suggestionsMultiple : this.t.suggestions);
    let submit: HTMLButtonElement | null = null;
    for (const reply of replies!) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'chip';
      b.setAttribute('part', 'chip');
      b.textContent = reply;
      if (multiple) b.setAttribute('aria-pressed', 'false');
      b.addEventListener('click', () => {
        if (!multiple) {
          this.conversation?.send(reply);
          this.focusInput();
          return;
        }
        if (this.picked.has(reply)) this.picked.delete(reply);
        else this.picked.add(reply);
        b.setAttribute('aria-pressed', String(this.picked.has(reply)));
        if (submit) {
          submit.disabled = this.picked.size === 0;
          submit.textContent = this.picked.size ? fill(this.t.sendChoicesCount, { n: this.picked.size }) : this.t.sendChoices;
        }
      });
      ui.chips.append(b);
    }
    if (multiple) {
      submit = document.createElement('button');
      submit.type = 'button';
      submit.className = 'chip submit';
      submit.setAttribute('part', 'chip chip-submit');
      submit.textContent = this.t.sendChoices;
      submit.disabled = true;
      submit.addEventListener('click', () => {
        const chosen = replies!.filter((r) => this.picked.has(r));
        if (!chosen.length) return;
        this.conversation?.send(chosen.join(', '));
        this.focusInput();
      });
      ui.chips.append(submit);
    }
    this.scrollDown(false);
  }

  /** The structured control after a miss (fallback-input.ts), while no message is in flight. */
  private renderFallback(): void {
    const ui = this.ui;
    if (!ui) return;
    const s = this.state;
    const usable = s && this.pendingEls.size === 0 && !closed(s) ? s.input : undefined;
    const chips = this.latest?.role === 'bot' ? (this.latest.quickReplies ?? []) : [];
    renderFallback(ui.fallback, usable, fallbackTexts(this.locale), this.locale, (text) => {
      this.conversation?.send(text);
      this.focusInput();
    }, chips);
  }

  // --- helpers ---------------------------------------------------------------

  private focusInput(): void {
    const ui = this.ui;
    if (!ui) return;
    if (!ui.input.disabled) ui.input.focus();
    else if (!ui.end.hidden && !ui.again.hidden) ui.again.focus();
    else (this.options?.mode === 'inline' ? ui.log : ui.close).focus();
  }

  private autosize(): void {
    const input = this.ui?.input;
    if (!input) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight + 2, 140)}px`;
  }

  /** Keeps the newest line in view (always for the visitor's own, otherwise when they were near the end). */
  private scrollDown(force: boolean): void {
    const log = this.ui?.log;
    if (!log) return;
    if (force || this.stick) {
      log.scrollTop = log.scrollHeight;
      this.stick = true;
    }
  }

  private emit(name: WidgetEventName, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(`questline:${name}`, { detail, bubbles: true, composed: true }));
    try {
      this.onWidgetEvent?.(name, detail);
    } catch (err) {
      console.error(err);
    }
  }
}

/** Defines <questline-chat> once (loading widget.js twice is harmless). */
export function defineElement(): void {
  if (!customElements.get(TAG)) customElements.define(TAG, QuestlineChat);
}
