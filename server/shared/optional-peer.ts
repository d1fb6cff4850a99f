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

/** The Anthropic SDK: the Claude extractor's optional peer. */
export const ANTHROPIC_PACKAGE = '@anthropic-ai/sdk';

/** A feature was used whose optional package is not installed; the message is one line naming the package to install. */
export class MissingPeerError extends Error {
  readonly code = 'not_installed';
  constructor(readonly feature: string, readonly packageName: string) {
    super(notInstalledMessage(feature, packageName));
    this.name = 'MissingPeerError';
  }
}

/** Runs `load` (an `import()` of code that needs `name`), turning "package not installed" into a MissingPeerError for `feature`. */
export async function importOptional<T>(load: () => Promise<T>, name: string, feature: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissingPackage(err, name)) throw new MissingPeerError(feature, name);
    throw err;
  }
}
