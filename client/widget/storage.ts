// Where the widget remembers its session between page loads: localStorage
// (survives closing the tab), sessionStorage (this tab only) or nowhere.

export type StorageKind = 'local' | 'session' | 'none';

/** What is kept per (server, key, flow). */
export interface Saved {
  sessionId: string;
  token: string;
  /** Messages up to this id were cleared by a restart and are not shown again. */
  floor: number;
  /** Whether the chat was open, so a reload opens it again. */
  open?: boolean;
  /** The session's locale when it started (a later one means the visitor switched language). */
  locale?: string;
}

export interface SessionMemory {
  load(): Saved | null;
  save(s: Saved): void;
  forget(): void;
  /** This browser's visitor id (kept with the sessions, made on first use), so a flow's variant stays the same for it; undefined without storage. */
  visitor?(): string | undefined;
}

/** A new visitor id: 16 random bytes, base64url. */
function newVisitorId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A memory for one conversation slot; never throws (storage may be disabled, full or blocked). */
export function sessionMemory(kind: StorageKind, slot: string): SessionMemory {
  let area: Storage | null = null;
  try {
    area = kind === 'local' ? window.localStorage : kind === 'session' ? window.sessionStorage : null;
  } catch {
    area = null; // third-party storage blocked: behave as 'none'
  }
  const name = `questline:${slot}`;
  return {
    load() {
      if (!area) return null;
      try {
        const raw = area.getItem(name);
        if (!raw) return null;
        const v = JSON.parse(raw) as Partial<Saved>;
        if (typeof v.sessionId !== 'string' || typeof v.token !== 'string') return null;
        return {
          sessionId: v.sessionId, token: v.token, floor: typeof v.floor === 'number' && v.floor >= 0 ? v.floor : 0,
          ...(v.open ? { open: true } : {}), ...(typeof v.locale === 'string' ? { locale: v.locale } : {}),
        };
      } catch {
        return null;
      }
    },
    save(s) {
      try {
        area?.setItem(name, JSON.stringify(s));
      } catch {
        // quota or privacy mode: the session just won't survive a reload
      }
    },
    forget() {
      try {
        area?.removeItem(name);
      } catch {
        // ignore
      }
    },
    visitor() {
      if (!area) return undefined;
      try {
        const kept = area.getItem('questline:visitor');
        if (kept && /^[A-Za-z0-9_-]{8,64}$/.test(kept)) return kept;
        const id = newVisitorId();
        area.setItem('questline:visitor', id);
        return id;
      } catch {
        return undefined;
      }
    },
  };
}
