import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sourceFile } from '../catalog/sources.ts';
import { FilePublishLog, latestPublished } from '../store/publish-log.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';

/**
 * `questline export-published`: writes the newest text the Studio published
 * for each source file (kept under DATA_DIR/studio/publishes.json when
 * FLOWS_DIR is read-only or FLOWS_WRITE_BACK=0) into a flows folder, so it can
 * be committed.
 */
export async function exportPublishedCommand(opts: { dataDir: string; out: string }, io: CliIo): Promise<number> {
  const file = join(resolve(opts.dataDir), 'studio', 'publishes.json');
  if (!existsSync(file)) {
    io.err(`questline export-published: no publish log at ${file} (nothing was published with this DATA_DIR)`);
    return EXIT_USAGE;
  }
  let log: FilePublishLog;
  try {
    log = new FilePublishLog(file);
  } catch (err) {
    io.err(`questline export-published: ${(err as Error).message}`);
    return EXIT_FAILED;
  }
  const out = resolve(opts.out);
  const texts = latestPublished(await log.all());
  for (const { path, text, seq } of texts) {
    const target = sourceFile(out, path);
    if (!target) {
      io.err(`questline export-published: skipped '${path}' (not a source path)`);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    io.out(`${path} (publish #${seq})`);
  }
  io.err(`${texts.length} file(s) written under ${out}`);
  return EXIT_OK;
}
