// What delivery reports. Fields are scalars only, so a whole completion (and
// with it an answer value) cannot be handed to a log by accident: ids, status
// codes, counts and error messages of our own making, never answers or
// response bodies (a receiver may echo the answers back).

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** A logger for delivery: level, message, scalar fields. */
export type DeliveryLog = (level: 'info' | 'warn' | 'error', message: string, fields: LogFields) => void;

/** One JSON line per warning or error on stderr; info is dropped. */
export const stderrLog: DeliveryLog = (level, message, fields) => {
  if (level === 'info') return;
  process.stderr.write(JSON.stringify({ level, msg: message, component: 'delivery', ...fields }) + '\n');
};

/** Reports nothing. */
export const silentLog: DeliveryLog = () => {};
