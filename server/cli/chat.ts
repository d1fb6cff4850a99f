import { createInterface } from 'node:readline/promises';
import { systemCallEnv } from '../conversation/actions.ts';
import { LocalConversation, type Reply } from '../conversation/local-conversation.ts';
import type { BotMessage } from '../conversation/messages.ts';
import type { QuestlineConfig } from '../project-config.ts';
import { answerValues } from '../engine/session.ts';
import { ENDED } from '../engine/traverse.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';
import { ScriptedClock } from '../conversation/scripted-clock.ts';
import { compileForCli, DEFAULT_NOW, formatEvent, localeNote, messageLines, summaryLines, validNow } from './run.ts';

const HELP = [
  'Type your answer and press Enter. A number picks that quick reply.',
  '  /trace    what happened in the last turn',
  '  /answers  the answers so far',
  '  /approve  /reject  decide an interrupt that waits for an operator',
  '  /quit     stop (so does Ctrl-D)',
];

/**
 * The text a line stands for: a number (or, for a multiple choice, numbers
 * separated by commas) picks quick replies; anything else is sent as typed.
 */
export function resolveQuickReply(line: string, last: BotMessage | undefined): string {
  const replies = last?.quickReplies;
  if (!replies || !/^\d+(\s*,\s*\d+)*$/.test(line)) return line;
  const picks = line.split(',').map((n) => Number(n.trim()));
  if ((picks.length > 1 && !last?.multiple) || picks.some((n) => n < 1 || n > replies.length)) return line;
  return picks.map((n) => replies[n - 1]!).join(', ');
}

/** Flags of `questline chat`. */
export interface ChatOptions {
  now?: string;
  /** The visitor's language (`de`, `fr-CA`, …), matched against the flow's `locales` as the widget's is: to try a translation. */
  locale?: string;
  /** The project's implementations (questline.config): the flow is checked against them and runs with them. */
  implementations?: QuestlineConfig;
}

/** `questline chat FLOW [--locale TAG]`: a conversation in the terminal, with the offline extractor. */
export async function chatCommand(
  flowFile: string,
  opts: ChatOptions,
  io: CliIo,
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
): Promise<number> {
  if (opts.now !== undefined && !validNow(opts.now)) {
    io.err(`questline chat: --now ${JSON.stringify(opts.now)} is not an ISO 8601 date-time such as ${DEFAULT_NOW}`);
    return EXIT_USAGE;
  }
  const flow = compileForCli(flowFile, io, opts.implementations);
  if (!flow) return EXIT_FAILED;
  const clock = opts.now !== undefined ? new ScriptedClock(opts.now) : undefined;
  const conversation = new LocalConversation(flow, { env: clock ?? systemCallEnv, ...opts.implementations });
  const tty = input.isTTY === true;
  // A piped stdin is read through the line iterator, which buffers lines that
  // arrive while a turn is still running; `question()` would drop them.
  const rl = createInterface({ input, terminal: tty, ...(tty ? { output: process.stdout } : {}) });
  rl.setPrompt('> ');
  rl.on('SIGINT', () => rl.close());
  const lines = rl[Symbol.asyncIterator]();

  if (opts.locale !== undefined) {
    const note = localeNote(flow, opts.locale);
    if (note) io.err(note);
  }
  let last: Reply = await conversation.start(opts.locale !== undefined ? { locale: opts.locale } : {});
  let lastQuestion: BotMessage | undefined;
  const show = (r: Reply) => {
    for (const m of r.messages) io.out(messageLines(m).join('\n'));
    lastQuestion = [...r.messages].reverse().find((m) => m.kind === 'question' || m.kind === 'invalid') ?? lastQuestion;
    if (r.session.status === 'waiting') io.out('(waiting for an operator: /approve or /reject)');
  };
  io.out(`${flow.label ?? flow.id} — type /help for commands`);
  show(last);
  try {
    while (!ENDED.has(conversation.session.status)) {
      if (tty) rl.prompt();
      const next = await lines.next();
      if (next.done) break;
      const line = next.value.trim();
      if (!tty) io.out(`> ${line}`);
      if (line === '') continue;
      if (line.startsWith('/')) {
        const cmd = line.toLowerCase();
        if (cmd === '/quit' || cmd === '/exit') break;
        if (cmd === '/help') io.out(HELP.join('\n'));
        else if (cmd === '/trace') io.out(last.events.length > 0 ? last.events.map(formatEvent).join('\n') : '(no events in the last turn)');
        else if (cmd === '/answers') {
          const answers = answerValues(conversation.session);
          io.out(Object.keys(answers).length > 0 ? Object.entries(answers).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n') : '(no answers yet)');
        } else if (cmd === '/approve' || cmd === '/reject') {
          if (conversation.session.status !== 'waiting') io.out('(nothing is waiting for an operator)');
          else {
            clock?.tick();
            last = await conversation.operator(cmd === '/approve' ? 'approve' : 'reject');
            show(last);
          }
        } else io.out(`unknown command ${line}; type /help`);
        continue;
      }
      const text = resolveQuickReply(line, lastQuestion);
      if (text !== line) io.out(`  → ${text}`);
      clock?.tick();
      last = await conversation.send(text);
      show(last);
    }
  } finally {
    rl.close();
  }
  io.out(['', ...summaryLines(conversation.session)].join('\n'));
  return EXIT_OK;
}
