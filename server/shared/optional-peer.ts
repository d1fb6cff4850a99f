// Optional peer dependencies (the graph layout's dagre, the Anthropic SDK,
// ioredis) are imported when first used. When one is not installed, the
// import fails with Node's ERR_MODULE_NOT_FOUND naming the package; this
// tells that failure apart from any other, so the edge can say which package
// to install instead of answering a bare internal error.

/** Whether `err` is the failed import of the package `name` (not installed), rather than any other error. */
export function isMissingPackage(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || (e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'MODULE_NOT_FOUND')) return false;
  return typeof e.message === 'string' && (e.message.includes(`'${name}'`) || e.message.includes(`"${name}"`) || e.message.includes(`/node_modules/${name}/`));
}

/** The graph layout's optional peer. */
export const LAYOUT_PACKAGE = '@dagrejs/dagre';

/** The words for a feature whose optional package is not installed. */
export const notInstalledMessage = (feature: string, name: string) =>
  `${feature} needs the optional package ${name}, which is not installed here (npm install ${name}).`;
