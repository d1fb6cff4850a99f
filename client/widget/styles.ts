// The widget's stylesheet, adopted by its shadow root (a constructed
// stylesheet, so pages with a strict `style-src` CSP still style it).
//
// Theming: every colour, the font, the radius and the sizes read a
// `--questline-*` custom property with a default; custom properties inherit
// into the shadow root, so a page sets them on `questline-chat` (or `:root`).
// The page's own rules cannot reach inside; `:host` resets the one element
// they can reach with !important (which wins over the page's normal and
// !important rules), so `* { all: unset }` on the page changes nothing.
//
// Direction: the root carries `dir` (rtl for Arabic, Hebrew, …) and the
// panel's inside uses logical properties (inline-start/end), so bubbles,
// header and composer mirror; the launcher keeps the physical corner the
// page chose with `position`.

export const CSS = /* css */ `
:host {
  all: initial !important;
  display: block !important;
  contain: none !important;
  transform: none !important;
  filter: none !important;
}
:host([hidden]) { display: none !important; }
:host([data-mode="bubble"]), :host([data-mode="popup"]) {
  position: static !important;
  width: 0 !important;
  height: 0 !important;
  overflow: visible !important;
}

.root {
  --_accent: var(--questline-accent, #0b5fff);
  --_accent-text: var(--questline-accent-text, #ffffff);
  --_bg: var(--questline-background, #ffffff);
  --_text: var(--questline-text, #1b1f24);
  --_muted: var(--questline-muted, #57606a);
  --_border: var(--questline-border, #d0d7de);
  --_bot-bg: var(--questline-bot-background, #f1f3f6);
  --_bot-text: var(--questline-bot-text, var(--_text));
  --_user-bg: var(--questline-user-background, var(--_accent));
  --_user-text: var(--questline-user-text, var(--_accent-text));
  --_error: var(--questline-error, #b42318);
  --_alert: var(--questline-alert, #a4160f);
  --_radius: var(--questline-radius, 14px);
  --_font: var(--questline-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
  --_size: var(--questline-font-size, 15px);
  --_width: var(--questline-width, 380px);
  --_height: var(--questline-height, 600px);
  --_x: var(--questline-offset-x, 20px);
  --_y: var(--questline-offset-y, 20px);
  --_shadow: var(--questline-shadow, 0 12px 40px rgba(15, 23, 42, 0.22), 0 2px 8px rgba(15, 23, 42, 0.12));
  --_z: 2147483647;
  display: block;
  box-sizing: border-box;
  font-family: var(--_font);
  font-size: var(--_size);
  line-height: 1.45;
  color: var(--_text);
  text-align: start;
  white-space: normal;
  -webkit-text-size-adjust: 100%;
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
button, input, textarea { font: inherit; color: inherit; margin: 0; }
button { cursor: pointer; }
.sr {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }

/* --- launcher ------------------------------------------------------------ */
.launcher {
  position: fixed;
  bottom: var(--_y);
  right: var(--_x);
  z-index: var(--_z);
  width: 60px; height: 60px;
  border: 0; border-radius: 50%;
  background: var(--_accent); color: var(--_accent-text);
  box-shadow: var(--_shadow);
  display: grid; place-items: center;
  transition: transform 0.15s ease;
}
.launcher:hover { transform: scale(1.06); }
.launcher:focus-visible { outline-offset: 4px; }
.launcher svg { width: 28px; height: 28px; fill: currentColor; }
.launcher .dot {
  position: absolute; top: 4px; right: 4px; width: 14px; height: 14px; border-radius: 50%;
  background: var(--_error); border: 2px solid var(--_accent-text);
}
.left .launcher { right: auto; left: var(--_x); }

/* --- panel --------------------------------------------------------------- */
.panel {
  display: flex; flex-direction: column;
  background: var(--_bg); color: var(--_text);
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  overflow: hidden;
}
.floating .panel, .mode-popup .panel {
  position: fixed;
  z-index: var(--_z);
  right: var(--_x);
  bottom: calc(var(--_y) + 76px);
  width: min(var(--_width), calc(100vw - 2 * var(--_x)));
  height: min(var(--_height), calc(100vh - var(--_y) - 100px));
  box-shadow: var(--_shadow);
  animation: ql-in 0.18s ease-out;
}
.mode-popup .panel { bottom: var(--_y); height: min(var(--_height), calc(100vh - 2 * var(--_y))); }
.left .panel { right: auto; left: var(--_x); }
.mode-inline .panel { position: relative; width: 100%; height: var(--_height); }
@keyframes ql-in { from { opacity: 0; transform: translateY(12px); } to { opacity: 1; transform: none; } }

header {
  display: flex; align-items: center; gap: 4px;
  padding-block: 10px;
  padding-inline: 16px 8px;
  background: var(--_accent); color: var(--_accent-text);
}
header h2 {
  flex: 1; min-width: 0; margin: 0;
  font-size: 1.05em; font-weight: 600; line-height: 1.3;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
.tool {
  display: inline-flex; align-items: center; gap: 4px;
  min-height: 36px; min-width: 36px; padding: 0 10px;
  border: 0; border-radius: 8px;
  background: transparent; color: inherit; font-size: 0.9em;
}
.tool:hover:not(:disabled) { background: rgba(255, 255, 255, 0.18); }
.tool:disabled { opacity: 0.55; cursor: default; }
.tool:focus-visible { outline-color: var(--_accent-text); outline-offset: -3px; }
.tool svg { width: 18px; height: 18px; fill: currentColor; flex: none; }
.close { padding: 0; justify-content: center; }
.close svg { width: 20px; height: 20px; }
/* arrows point the way the text runs */
[dir="rtl"] .back svg, [dir="rtl"] .send svg { transform: scaleX(-1); }

.progress { padding: 8px 16px 6px; border-bottom: 1px solid var(--_border); }
.progress .track { height: 6px; border-radius: 3px; background: var(--_bot-bg); overflow: hidden; }
.progress .bar { height: 100%; width: 0; background: var(--_accent); border-radius: 3px; transition: width 0.3s ease; }
.progress .label { margin-top: 4px; font-size: 0.8em; color: var(--_muted); }

.conn {
  padding: 6px 16px; font-size: 0.85em;
  background: #fff4ce; color: #5c4400; border-bottom: 1px solid #f0d98c;
}
.conn.failed { background: #fde8e7; color: var(--_error); border-color: #f5c2bf; }

/* --- transcript ---------------------------------------------------------- */
.log {
  flex: 1; min-height: 0; overflow-y: auto; overscroll-behavior: contain;
  padding: 14px 14px 6px;
  display: flex; flex-direction: column; gap: 8px;
}
.log:focus-visible { outline-offset: -3px; }
/* a short conversation sits at the bottom, next to the input and the chips */
.log::before { content: ""; flex: 1 0 0; margin-top: -8px; }
.history, .live { display: flex; flex-direction: column; gap: 8px; }
.history:empty, .live:empty { display: none; }
.msg { display: flex; flex-direction: column; max-width: 86%; }
.msg.bot, .msg.operator { align-self: flex-start; }
.msg.user { align-self: flex-end; align-items: flex-end; }
.bubble {
  padding: 8px 12px;
  border-radius: var(--_radius);
  white-space: pre-wrap; overflow-wrap: anywhere; word-break: normal;
  /* each paragraph takes the direction of its own text (an English answer in a Hebrew chat) */
  unicode-bidi: plaintext;
}
.bot .bubble, .operator .bubble { background: var(--_bot-bg); color: var(--_bot-text); border-end-start-radius: 4px; }
.user .bubble { background: var(--_user-bg); color: var(--_user-text); border-end-end-radius: 4px; }
.operator .bubble { border: 1px solid var(--_accent); }
.who { font-size: 0.78em; color: var(--_muted); margin-block: 0 2px; margin-inline: 4px 0; }
.msg.invalid .bubble { border-inline-start: 4px solid var(--_error); }
/* safety advice (tone: alert): red frame, tinted ground, a warning icon and a label in words */
.msg.alert { max-width: 100%; align-self: stretch; }
.msg.alert .bubble {
  background: var(--questline-alert-background, #fdecea); color: var(--questline-alert-text, #7a1610);
  border: 2px solid var(--_alert); border-inline-start-width: 6px; border-radius: 8px;
}
.alert-label { display: flex; align-items: center; gap: 6px; margin-bottom: 4px; font-weight: 700; color: var(--_alert); }
.alert-label svg { flex: none; }
.msg.pending .bubble { opacity: 0.65; }
.msg.failed .bubble { background: #fde8e7; color: var(--_error); }
.note { font-size: 0.78em; color: var(--_error); margin: 2px 4px 0; }
.msg.new { animation: ql-msg 0.2s ease-out; }
@keyframes ql-msg { from { opacity: 0; transform: translateY(6px); } to { opacity: 1; transform: none; } }

.typing { align-self: flex-start; display: flex; gap: 4px; padding: 12px 14px; border-radius: var(--_radius); background: var(--_bot-bg); }
.typing i { width: 7px; height: 7px; border-radius: 50%; background: var(--_muted); animation: ql-dot 1.2s infinite ease-in-out; }
.typing i:nth-of-type(2) { animation-delay: 0.15s; }
.typing i:nth-of-type(3) { animation-delay: 0.3s; }
@keyframes ql-dot { 0%, 60%, 100% { opacity: 0.3; transform: none; } 30% { opacity: 1; transform: translateY(-3px); } }

/* --- quick replies, end state, composer ---------------------------------- */
.chips { display: flex; flex-wrap: wrap; gap: 6px; padding: 6px 14px 4px; max-height: 40%; overflow-y: auto; flex: none; }
.chip {
  min-height: 36px; padding: 6px 14px;
  border: 1.5px solid var(--_accent); border-radius: 999px;
  background: var(--_bg); color: var(--_accent); font-weight: 500;
}
.chip:hover { background: color-mix(in srgb, var(--_accent) 10%, var(--_bg)); }
.chip[aria-pressed="true"] { background: color-mix(in srgb, var(--_accent) 14%, var(--_bg)); color: var(--_text); }
.chip[aria-pressed="true"]::before { content: "✓"; margin-inline-end: 6px; color: var(--_accent); font-weight: 700; }
.chip.submit {
  background: var(--_accent); color: var(--_accent-text);
  position: sticky; bottom: 0; box-shadow: 0 0 0 4px var(--_bg);
}
.chip.submit:disabled { opacity: 0.5; cursor: default; }

.confirm, .end {
  margin: 6px 14px; padding: 10px 12px;
  border-radius: 10px; background: var(--_bot-bg);
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
}
.confirm p, .end p { margin: 0; flex: 1 1 180px; }
.end strong { display: block; }
.action {
  min-height: 36px; padding: 6px 14px;
  border: 1.5px solid var(--_accent); border-radius: 8px;
  background: var(--_accent); color: var(--_accent-text); font-weight: 500;
}
.action.secondary { background: transparent; color: var(--_accent); }

.error { margin: 4px 14px 0; font-size: 0.85em; color: var(--_error); }

form { display: flex; align-items: flex-end; gap: 8px; padding: 10px 12px 12px; border-top: 1px solid var(--_border); }
textarea {
  flex: 1; min-width: 0;
  font-size: max(16px, var(--_size));
  line-height: 1.35;
  padding: 9px 12px;
  border: 1px solid var(--_border); border-radius: 10px;
  background: var(--_bg); color: var(--_text);
  resize: none; max-height: 140px; overflow-y: auto;
  unicode-bidi: plaintext;
}
textarea:focus-visible { outline: 2px solid var(--_accent); outline-offset: 0; border-color: var(--_accent); }
textarea::placeholder { color: var(--_muted); opacity: 1; }
textarea:disabled { background: var(--_bot-bg); }
.send {
  flex: none; width: 42px; height: 42px; border: 0; border-radius: 10px;
  background: var(--_accent); color: var(--_accent-text);
  display: grid; place-items: center;
}
.send:disabled { opacity: 0.5; cursor: default; }
.send svg { width: 20px; height: 20px; fill: currentColor; }
.brand { text-align: center; font-size: 0.72em; color: var(--_muted); padding: 0 0 6px; margin-top: -6px; }

/* phones: the open chat takes the whole screen */
@media (max-width: 480px) {
  .floating .panel, .mode-popup .panel {
    inset: 0; width: 100%; height: 100%; max-height: none;
    border-radius: 0; border: 0;
  }
  .floating.open .launcher { display: none; }
  /* room for the title: the controls keep their names for screen readers only */
  .tool span {
    position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
    overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  .tool { padding: 0; justify-content: center; }
  .tool svg { width: 20px; height: 20px; }
}

@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { animation: none !important; transition: none !important; scroll-behavior: auto !important; }
}
@media (forced-colors: active) {
  .bubble, .chip, .panel { border: 1px solid CanvasText; }
}
`;
