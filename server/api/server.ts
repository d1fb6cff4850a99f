// `questline/server`: Questline over HTTP and socket.io. Redis, the Anthropic
// SDK and graph layout are optional peer dependencies, imported only when
// configured or asked for.

import type { Questline, QuestlineOptions } from '../questline.ts';

export type { Questline, QuestlineOptions } from '../questline.ts';
export { startServer, StartupError, type RunningServer, type ServerOverrides } from '../main.ts';
export { loadConfig, ConfigError, parseOperatorKeys, type Config } from '../config.ts';
export type { OperatorKey } from '../transport/admin-access.ts';
export { createEmbeddedBackend, type Backend } from '../delivery/backend.ts';
export { MemoryOutbox } from '../delivery/outbox.ts';
export { TenantDirectory } from '../catalog/tenants.ts';
export { DirectoryArchive, MemoryArchive, type RevisionArchive } from '../catalog/registry.ts';
export { createLogger, type Logger } from '../observability/logger.ts';
export { loadProjectConfig, findProjectConfig, ProjectConfigError, CONFIG_FILES } from '../project-config.ts';
export { verifySignature, signPayload, DEFAULT_TOLERANCE_SECONDS } from '../delivery/signature.ts';

/**
 * Builds Questline: an express handler and a socket.io attach, over a backend, for the flows of a folder.
 * The server's modules (express, socket.io, prom-client, the rate limits) load on this call, not when
 * `questline/server` is imported.
 */
export async function createQuestline(opts: QuestlineOptions): Promise<Questline> {
  const { createQuestline: create } = await import('../questline.ts');
  return create(opts);
}
