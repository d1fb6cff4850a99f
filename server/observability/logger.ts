import { pino, type Level, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths that never reach a log line: what visitors type (message text,
 * answers, context), credentials (session tokens, the admin key, bearer
 * headers). Log answer keys, never values: `pii: true` answers included.
 */
export const REDACT_PATHS = [
  'text', '*.text',
  'answers', '*.answers',
  'context', '*.context',
  'value', '*.value',
  'token', '*.token',
  'adminKey', '*.adminKey',
  'operatorKeys', '*.operatorKeys', 'OPERATOR_KEYS', '*.OPERATOR_KEYS',
  'auth', '*.auth',
  'req.headers.authorization', 'req.headers["x-questline-admin"]', 'req.headers.cookie',
  'headers.authorization', 'headers["x-questline-admin"]', 'headers.cookie',
];

/** The server's root logger: JSON lines on stdout, ISO timestamps, secrets and visitor text redacted. */
export function createLogger(level: Level | 'silent' = 'info', destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: 'questline' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination as pino.DestinationStream) : pino(options);
}
