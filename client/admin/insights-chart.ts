// The Insights view's charts, drawn with DOM calls (every label is a text
// node): visitors at each question as horizontal bars, and sessions started
// and completed per day as SVG columns.

const SVG = 'http://www.w3.org/2000/svg';

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** One question's bar. */
export interface StepBar {
  label: string;
  reached: number;
  dropped: number;
  escalated: number;
  worst: boolean;
}

/** Visitors at each question: a bar as long as the share of sessions that reached it, the part that left there in red, handed to a person in amber. */
export function drawSteps(box: HTMLElement, sessions: number, steps: readonly StepBar[]): void {
  box.replaceChildren();
  if (sessions === 0) {
    box.append(h('p', { class: 'muted' }, 'No sessions in this period.'));
    return;
  }
  const list = h('ol', { class: 'steps' });
  for (const st of steps) {
    const pct = (n: number) => `${Math.max(0, Math.min(100, (n / sessions) * 100)).toFixed(1)}%`;
    // widths through the CSSOM: the console's CSP refuses style attributes
    const left = h('span', { class: 'seg-left' });
    left.style.width = `${st.reached ? ((st.dropped / st.reached) * 100).toFixed(1) : 0}%`;
    const person = h('span', { class: 'seg-person' });
    person.style.width = `${st.reached ? ((st.escalated / st.reached) * 100).toFixed(1) : 0}%`;
    const bar = h('div', { class: 'bar' }, left, person);
    bar.style.width = pct(st.reached);
    const words = [`${st.reached} reached`, st.dropped ? `${st.dropped} left here` : '', st.escalated ? `${st.escalated} to a person` : ''].filter(Boolean).join(' · ');
    list.append(h('li', { class: st.worst ? 'worst' : '' }, h('span', { class: 'step-label' }, st.label), h('div', { class: 'track' }, bar), h('span', { class: 'step-words' }, words)));
  }
  box.append(list, h('p', { class: 'chart-key' },
    h('span', { class: 'key key-reached' }), 'reached  ', h('span', { class: 'key key-left' }), 'left at this question  ', h('span', { class: 'key key-person' }), 'handed to a person'));
}

/** Sessions started and completed per day, as columns (a day per pair), with the completion rate under each day. */
export function drawDays(box: HTMLElement, days: ReadonlyArray<{ day: string; sessions: number; completed: number }>): void {
  box.replaceChildren();
  if (days.length === 0) {
    box.append(h('p', { class: 'muted' }, 'No sessions in this period.'));
    return;
  }
  const shown = days.slice(-31);
  const top = Math.max(1, ...shown.map((d) => d.sessions));
  const col = 18;
  const gap = 14;
  const chartH = 150;
  const left = 34;
  const width = left + shown.length * (2 * col + gap) + gap;
  const svg = s('svg', { viewBox: `0 0 ${width} ${chartH + 48}`, width: Math.max(width, 260), height: chartH + 48, role: 'img', 'aria-label': `Sessions started and completed per day, ${shown[0]!.day} to ${shown.at(-1)!.day}` });
  svg.append(s('line', { x1: left, y1: chartH, x2: width, y2: chartH, class: 'axis' }));
  svg.append(s('text', { x: left - 6, y: 10, 'text-anchor': 'end', class: 'tick' }, String(top)));
  svg.append(s('text', { x: left - 6, y: chartH, 'text-anchor': 'end', class: 'tick' }, '0'));
  shown.forEach((d, i) => {
    const x = left + gap + i * (2 * col + gap);
    const hs = (d.sessions / top) * (chartH - 14);
    const hc = (d.completed / top) * (chartH - 14);
    svg.append(s('rect', { x, y: chartH - hs, width: col, height: hs, class: 'col-started' }));
    svg.append(s('rect', { x: x + col, y: chartH - hc, width: col, height: hc, class: 'col-completed' }));
    svg.append(s('text', { x: x + col / 2, y: chartH - hs - 3, 'text-anchor': 'middle', class: 'val' }, String(d.sessions)));
    svg.append(s('text', { x: x + col * 1.5, y: chartH - hc - 3, 'text-anchor': 'middle', class: 'val' }, String(d.completed)));
    svg.append(s('text', { x: x + col, y: chartH + 15, 'text-anchor': 'middle', class: 'tick' }, d.day.slice(5)));
    svg.append(s('text', { x: x + col, y: chartH + 31, 'text-anchor': 'middle', class: 'rate' }, d.sessions ? `${Math.round((d.completed / d.sessions) * 100)}%` : '–'));
  });
  box.append(svg, h('p', { class: 'chart-key' }, h('span', { class: 'key key-started' }), 'started  ', h('span', { class: 'key key-completed' }), 'completed  (percent: share completed)'));
}
