// Zod-free on purpose: the widget imports these values at run time, and
// anything importing zod would pull it into the browser bundle.

/** Size limits of the protocol. */
export const LIMITS = {
  /** One engine.io packet / one REST body, in bytes: bigger ones are refused (REST 413) or close the socket. */
  maxPayloadBytes: 32 * 1024,
  /** A visitor's or operator's message, in characters (longer: `too_large`). */
  textChars: 2_000,
  /** Keys and serialized size of a session's client context. */
  contextKeys: 32,
  contextBytes: 4_096,
  /** The operator console's sessions list: a row's last-message preview (longer text ends with "…") and the longest `?q=` search, in characters. */
  previewChars: 160,
  searchChars: 200,
} as const;
