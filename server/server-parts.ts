// What `npm start` needs once it listens: imported after the listener is up,
// so /healthz answers before the modules of the whole server have loaded.

export { DirectoryArchive, MemoryArchive } from './catalog/registry.ts';
export { FilePublishLog } from './store/publish-log.ts';
export { createEmbeddedBackend } from './delivery/backend.ts';
export { TenantDirectory } from './catalog/tenants.ts';
export { formatDiagnostic } from './flow/diagnostic.ts';
export { namesOf } from './catalog/implementations-check.ts';
export { Metrics } from './observability/metrics.ts';
export { loadProjectConfig, ProjectConfigError } from './project-config.ts';
export { compose, logTenants } from './questline.ts';
