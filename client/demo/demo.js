// The demo page: one conversation over socket.io's /chat namespace.
// Wire types: server/realtime/protocol.ts (WireMessage, SessionState, the acks).
// Every text from the server is rendered with textContent, never as HTML.
/* global io */
'use strict';

(() => {
  // The demo tenants (flows/tenants/<tenant>/tenant.json): public keys, safe to ship in a page.
  const TENANTS = [
    { id: 'acme', name: 'Acme Lighting', key: 'pk_acme_demo', flows: ['flow.sales'] },
    { id: 'northside-clinic', name: 'Northside Community Clinic', key: 'pk_northside_demo', flows: ['flow.patient_intake'] },
  ];
  const TERMINAL = new Set(['completed', 'escalated', 'abandoned', 'error']);

  const $ = (id) => document.getElementById(id);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const ui = {
    tenant: $('tenant'), flow: $('flow'), newBtn: $('new'), connection: $('connection'),
    status: $('status'), node: $('node'), path: $('path'), session: $('session'),
    answers: $('answers'), answersEmpty: $('answers-empty'),
    title: $('chat-title'), progressLabel: $('progress-label'), progressBar: $('progress-bar'),
    back: $('back'), restart: $('restart'), log: $('log'), typing: $('typing'), replies: $('replies'),
    error: $('error'), composer: $('composer'), text: $('text'), send: $('send'),
  };

  /** What this page knows about its conversation. */
  const state = {
    tenant: TENANTS[0], flow: TENANTS[0].flows[0], socket: null,
    sessionId: null, token: null, lastSeq: 0, status: null,
    shown: new Map(), // id → <li>
    pending: new Map(), // clientId → <li> shown before the server echoed it
    lastBot: null, picked: new Set(), answersTimer: 0,
  };

  // --- storage: resume after a reload --------------------------------------

  const storageKey = () => `questline.demo.${state.tenant.id}.${state.flow}`;
  const saveSession = () => {
    if (!state.sessionId) return;
    localStorage.setItem(storageKey(), JSON.stringify({ sessionId: state.sessionId, token: state.token, lastSeq: state.lastSeq }));
  };
  const loadSession = () => {
    try {
      const s = JSON.parse(localStorage.getItem(storageKey()) || 'null');
      return s && typeof s.sessionId === 'string' && typeof s.token === 'string' ? s : null;
    } catch {
      return null;
    }
  };
  const forgetSession = () => localStorage.removeItem(storageKey());

  // --- rendering -----------------------------------------------------------

  const showError = (text) => {
    ui.error.textContent = text;
    ui.error.hidden = !text;
  };

  const scrollDown = () => {
    ui.log.scrollTop = ui.log.scrollHeight;
  };

  /** Renders one transcript line once (ids are per-session sequence numbers). */
  function render(m) {
    if (state.shown.has(m.id)) return;
    let li = m.role === 'user' && m.clientId ? state.pending.get(m.clientId) : undefined;
    if (li) {
      state.pending.delete(m.clientId);
      li.classList.remove('pending');
    } else {
      li = el('li', `msg ${m.role}${m.kind === 'invalid' ? ' invalid' : ''}${m.kind === 'done' || m.kind === 'handoff' ? ' closing' : ''}`);
      if (m.role === 'operator') li.append(el('span', 'who', 'Team member'));
      li.append(el('span', 'bubble', m.text));
      // keep the log in id order even when a resume replays lines around live ones
      const after = [...state.shown.entries()].filter(([id]) => id > m.id).sort((a, b) => a[0] - b[0])[0];
      if (after) ui.log.insertBefore(li, after[1]);
      else ui.log.append(li);
    }
    li.dataset.id = String(m.id);
    state.shown.set(m.id, li);
    if (m.id > state.lastSeq) {
      state.lastSeq = m.id;
      saveSession();
    }
    if (m.role === 'bot' && m.id === state.lastSeq) state.lastBot = m;
    if (m.role !== 'bot' && m.id === state.lastSeq) state.lastBot = null;
    if (m.progress) showProgress(m.progress);
    renderReplies();
    scrollDown();
  }

  function showProgress(p) {
    const pct = p.total > 0 ? Math.round((100 * p.answered) / p.total) : 0;
    ui.progressBar.style.width = `${pct}%`;
    ui.progressLabel.textContent = p.total > 0 ? `${p.answered} of about ${p.total} answered` : '\u00a0';
  }

  /** Quick replies of the newest bot question (several may be picked when it is a multiple choice). */
  function renderReplies() {
    ui.replies.replaceChildren();
    state.picked.clear();
    const m = state.lastBot;
    if (!m || !m.quickReplies || !m.quickReplies.length || TERMINAL.has(state.status)) return;
    for (const reply of m.quickReplies) {
      const b = el('button', 'reply', reply);
      b.type = 'button';
      b.addEventListener('click', () => {
        if (!m.multiple) return send(reply);
        if (state.picked.has(reply)) state.picked.delete(reply);
        else state.picked.add(reply);
        b.classList.toggle('picked', state.picked.has(reply));
        done.disabled = state.picked.size === 0;
      });
      ui.replies.append(b);
    }
    const done = el('button', 'reply primary', 'Send choices');
    if (m.multiple) {
      done.type = 'button';
      done.disabled = true;
      done.addEventListener('click', () => send([...state.picked].join(', ')));
      ui.replies.append(done);
    }
  }

  function showState(s) {
    state.status = s.status;
    ui.status.textContent = s.status;
    ui.status.className = `badge ${s.status}`;
    ui.node.textContent = s.nodeId || '—';
    ui.path.textContent = s.path && s.path.active ? `${s.path.active}${s.path.locked ? ' (locked)' : ' (tentative)'}` : '—';
    if (s.progress) showProgress(s.progress);
    const ended = TERMINAL.has(s.status);
    ui.text.disabled = ended || !state.sessionId;
    ui.send.disabled = ended || !state.sessionId;
    ui.back.disabled = ended || !state.sessionId;
    ui.restart.disabled = !state.sessionId;
    ui.text.placeholder = ended ? 'This conversation has ended — Restart or start a new one.' : 'Type your answer…';
    renderReplies();
    refreshAnswers();
  }

  /** The answers so far come from the session's REST view (the token opens it). */
  function refreshAnswers() {
    clearTimeout(state.answersTimer);
    state.answersTimer = setTimeout(async () => {
      if (!state.sessionId) return;
      try {
        const res = await fetch(`/api/v1/sessions/${encodeURIComponent(state.sessionId)}?after=999999999`, { headers: { authorization: `Bearer ${state.token}` } });
        if (!res.ok) return;
        const view = await res.json();
        const entries = Object.entries(view.answers || {});
        ui.answers.replaceChildren();
        for (const [key, value] of entries) {
          ui.answers.append(el('dt', '', key), el('dd', value === null ? 'skipped' : '', display(value)));
        }
        ui.answersEmpty.hidden = entries.length > 0;
      } catch {
        // the next state change tries again
      }
    }, 150);
  }

  const display = (v) => (v === null ? 'skipped' : Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v));

  function clearChat() {
    ui.log.replaceChildren();
    ui.replies.replaceChildren();
    ui.answers.replaceChildren();
    ui.answersEmpty.hidden = false;
    state.shown.clear();
    state.pending.clear();
    state.lastBot = null;
    state.lastSeq = 0;
    ui.progressBar.style.width = '0%';
    ui.progressLabel.textContent = '\u00a0';
    for (const id of ['status', 'node', 'path', 'session']) ui[id].textContent = '—';
    ui.status.className = '';
  }

  // --- the connection ------------------------------------------------------

  function connect() {
    if (state.socket) state.socket.close();
    clearChat();
    showError('');
    const stored = loadSession();
    state.sessionId = stored ? stored.sessionId : null;
    state.token = stored ? stored.token : null;
    ui.title.textContent = `${state.tenant.name} · ${state.flow}`;
    const socket = io('/chat', { auth: { key: state.tenant.key, ...(state.token ? { token: state.token } : {}) } });
    state.socket = socket;
    ui.connection.textContent = 'Connecting…';

    socket.on('connect', () => {
      ui.connection.textContent = 'Connected';
      // after a reconnect too: resume from the last id shown, the store fills the gap
      if (state.sessionId) resume(socket);
      else start(socket);
    });
    socket.on('connect_error', (err) => {
      const code = err.data && err.data.code;
      ui.connection.textContent = `Cannot connect${code ? ` (${code})` : ''}: ${err.message}`;
    });
    socket.on('disconnect', (reason) => {
      ui.connection.textContent = `Disconnected (${reason}); reconnecting…`;
    });
    socket.on('bot:message', render);
    socket.on('user:message', render);
    socket.on('operator:message', render);
    socket.on('bot:typing', ({ on }) => {
      ui.typing.hidden = !on;
      if (on) scrollDown();
    });
    socket.on('session:state', (s) => s.sessionId === state.sessionId && showState(s));
    socket.on('session:end', (e) => {
      if (e.sessionId === state.sessionId) ui.connection.textContent = `Conversation ${e.status}`;
    });
  }

  function adopt(socket, ack) {
    state.sessionId = ack.sessionId;
    state.token = ack.token;
    socket.auth.token = ack.token; // so an automatic reconnect can resume
    ui.session.textContent = ack.sessionId;
    saveSession();
    for (const m of ack.messages) render(m);
    showState(ack.state);
  }

  function start(socket) {
    socket.emit('session:start', { flow: state.flow, context: { page: 'demo' } }, (ack) => {
      if (!ack.ok) return showError(`Could not start: ${ack.error.message}`);
      adopt(socket, ack);
      ui.text.focus();
    });
  }

  function resume(socket) {
    socket.emit('session:start', { sessionId: state.sessionId, lastSeq: state.lastSeq }, (ack) => {
      if (!ack.ok) {
        // gone or no longer ours (a new data directory, say): start afresh
        forgetSession();
        state.sessionId = null;
        state.token = null;
        delete socket.auth.token;
        clearChat();
        return start(socket);
      }
      adopt(socket, ack);
    });
  }

  let sent = 0;
  function send(text) {
    const t = text.trim();
    if (!t || !state.socket || !state.sessionId) return;
    const clientId = `demo-${Date.now().toString(36)}-${(sent++).toString(36)}`;
    const li = el('li', 'msg user pending');
    li.append(el('span', 'bubble', t));
    ui.log.append(li);
    state.pending.set(clientId, li);
    state.lastBot = null;
    renderReplies();
    scrollDown();
    showError('');
    state.socket.emit('message', { text: t, clientId }, (ack) => {
      if (ack.ok) return;
      li.classList.add('failed');
      state.pending.delete(clientId);
      showError(ack.error.message);
    });
  }

  // --- controls ------------------------------------------------------------

  function fillFlows() {
    ui.flow.replaceChildren(...state.tenant.flows.map((f) => {
      const o = el('option', '', f);
      o.value = f;
      return o;
    }));
    ui.flow.value = state.flow;
  }

  ui.tenant.replaceChildren(...TENANTS.map((t) => {
    const o = el('option', '', t.name);
    o.value = t.id;
    return o;
  }));
  const last = localStorage.getItem('questline.demo.last');
  const lastTenant = last && TENANTS.find((t) => t.id === last.split(' ')[0]);
  if (lastTenant) {
    state.tenant = lastTenant;
    state.flow = lastTenant.flows.includes(last.split(' ')[1]) ? last.split(' ')[1] : lastTenant.flows[0];
  }
  ui.tenant.value = state.tenant.id;
  fillFlows();

  const remember = () => localStorage.setItem('questline.demo.last', `${state.tenant.id} ${state.flow}`);
  ui.tenant.addEventListener('change', () => {
    state.tenant = TENANTS.find((t) => t.id === ui.tenant.value) || TENANTS[0];
    state.flow = state.tenant.flows[0];
    fillFlows();
    remember();
    connect();
  });
  ui.flow.addEventListener('change', () => {
    state.flow = ui.flow.value;
    remember();
    connect();
  });
  ui.newBtn.addEventListener('click', () => {
    forgetSession();
    connect();
  });
  ui.composer.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ui.text.value);
    ui.text.value = '';
  });
  ui.back.addEventListener('click', () => {
    if (!state.socket) return;
    state.socket.emit('session:back', {}, (ack) => (ack.ok ? showState(ack.state) : showError(ack.error.message)));
  });
  ui.restart.addEventListener('click', () => {
    if (!state.socket) return;
    const divider = el('li', 'divider', 'Started over');
    ui.log.append(divider);
    state.socket.emit('session:restart', {}, (ack) => (ack.ok ? undefined : showError(ack.error.message)));
  });

  connect();
})();
