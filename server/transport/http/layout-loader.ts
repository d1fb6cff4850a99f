import { isMissingPackage, LAYOUT_PACKAGE, notInstalledMessage } from '../../shared/optional-peer.ts';
import { HttpError } from '../errors.ts';

/**
 * Imports a module that needs the graph layout's optional peer (dagre) —
 * `load` is the `import()` of it — turning its absence into `not_installed`
 * (501) with the package to install, instead of an internal error.
 */
export async function importLayoutModule<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissingPackage(err, LAYOUT_PACKAGE)) throw new HttpError('not_installed', notInstalledMessage('The flow map', LAYOUT_PACKAGE));
    throw err;
  }
}
