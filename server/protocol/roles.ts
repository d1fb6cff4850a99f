// Zod-free on purpose: both the server (emitting) and the browser clients
// (listening) use the role → event mapping at run time.

/** Who writes transcript lines (the `Role` schema in session.ts infers the same type). */
export const ROLES = ['bot', 'user', 'operator'] as const;

/** Who wrote a transcript line. */
export type RoleName = (typeof ROLES)[number];

/** The socket event that carries a transcript line written by each role. */
export const MESSAGE_EVENTS = {
  bot: 'bot:message',
  user: 'user:message',
  operator: 'operator:message',
} as const satisfies Record<RoleName, string>;

/** A socket event that carries one transcript line. */
export type MessageEvent = (typeof MESSAGE_EVENTS)[RoleName];

/** The socket event a transcript line written by `role` goes out on. */
export const messageEvent = <R extends RoleName>(role: R): (typeof MESSAGE_EVENTS)[R] => MESSAGE_EVENTS[role];
