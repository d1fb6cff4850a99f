/** Where a command writes: injectable so tests can run commands in-process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** The process's stdout and stderr. */
export const processIo: CliIo = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};

/** Exit codes of every command (interfaces.md). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
