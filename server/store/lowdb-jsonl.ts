import { open, readFile } from 'node:fs/promises';

// Append-only JSON Lines files: a turn appends its lines instead of
// rewriting a growing history. A crash mid-append can leave a torn last line;
// readers skip lines that do not parse, and the first append to a file in a
// process makes sure the file ends with a newline, so a torn line never glues
// itself to the next (retried) entry.

/** Appends one JSON line per value with a single write, repairing a torn tail once per file. */
export class JsonlAppender {
  /** Files known (in this process) to end with a newline. */
  readonly #clean = new Set<string>();

  /** Appends the values; resolves once the write returned. */
  async append(file: string, values: readonly unknown[]): Promise<void> {
    if (values.length === 0) return;
    let text = values.map((v) => JSON.stringify(v)).join('\n') + '\n';
    const handle = await open(file, 'a+');
    try {
      if (!this.#clean.has(file)) {
        const { size } = await handle.stat();
        if (size > 0) {
          const last = Buffer.alloc(1);
          await handle.read(last, 0, 1, size - 1);
          if (last[0] !== 0x0a) text = '\n' + text;
        }
      }
      // No other writer in this process touches the file meanwhile (callers
      // serialise per session), so the tail stays clean after a full write.
      this.#clean.delete(file);
      await handle.appendFile(text, 'utf8');
      this.#clean.add(file);
    } finally {
      await handle.close();
    }
  }

  /** Forgets what is known about files' tails (after close, another process may write). */
  reset(): void {
    this.#clean.clear();
  }
}

/** The parsed lines of a JSON Lines file, skipping blank and torn lines; [] when it does not exist. */
export async function readJsonl(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a torn line from a crash mid-append: it was never acknowledged
    }
  }
  return out;
}
