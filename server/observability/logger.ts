import type { DestinationStream, Level, Logger } from 'pino';
import { lazyRequire } from '../shared/lazy-require.ts';

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

/** pino, loaded by the first createLogger (not by `import('questline/server')`). */
const pinoPackage = lazyRequire<typeof import('pino')>('pino');

/** The server's root logger: JSON lines on stdout, ISO timestamps, secrets and visitor text redacted. */
export function createLogger(level: Level | 'silent' = 'info', destination?: NodeJS.WritableStream): Logger {
  const { pino } = pinoPackage();
  const options = {
    level,
    base: { service: 'questline' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination as DestinationStream) : pino(options);
}
