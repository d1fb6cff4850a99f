import { readFileSync, writeFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { flowDocumentJsonSchemaText } from '../flow/json-schema.ts';
import { chatCommand } from './chat.ts';
import type { EvalOptions } from './eval.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, processIo, type CliIo } from './io.ts';
import { mergeCommand, type MergeOptions } from './merge.ts';
import { migrateCommand } from './migrate.ts';
import { runCommand, type RunOptions } from './run.ts';
import type { TestOptions } from './test.ts';
import { validateCommand } from './validate.ts';
import { loadProjectConfig, ProjectConfigError, type QuestlineConfig } from '../project-config.ts';

const CONFIG_HELP = 'questline.config.{ts,mjs,js} exporting { validators, actions, extractor } (default: the one in the working directory)';

/**
 * The project's implementations for a command: `--config FILE`, else the
 * config file in the working directory; `undefined` when there is none. A
 * config that cannot load is printed and becomes an exit code.
 */
async function projectConfig(file: string | undefined, io: CliIo, command: string): Promise<{ impl?: QuestlineConfig } | number> {
  try {
    const loaded = await loadProjectConfig(file !== undefined ? { file } : {});
    return loaded.file ? { impl: loaded.config } : {};
  } catch (err) {
    if (!(err instanceof ProjectConfigError)) throw err;
    io.err(`questline ${command}: ${err.message}`);
    return file !== undefined && err.message.includes('no such file') ? EXIT_USAGE : EXIT_FAILED;
  }
}

/** Builds the `questline` command tree; each action stores its exit code in `code`. */
function program(io: CliIo, done: (code: number) => void): Command {
  const cmd = new Command('questline')
    .description('Questline: conversational intake flows — validate, draw, chat with, run and test them, and serve them.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError('(run questline --help for usage)');

  cmd
    .command('validate')
    .description('load (v0 or v1), compile and report every problem; exit 1 if any flow has an error')
    .argument('<flow...>', 'flow files or folders')
    .option('--json', 'print a machine-readable report on stdout')
    .option('--outputs-schema', 'print the JSON Schema of the flow\'s outputs (its answers)')
    .option('--no-warnings', 'print errors only')
    .option('--strict', 'a missing translation of a declared locale is an error, not a warning')
    .option('--config <file>', 'also check that every validator and action the flows name is registered in this questline.config file; without --config, names are not checked (validate cannot know your registry)')
    .action(async (paths: string[], opts: { json?: boolean; outputsSchema?: boolean; warnings?: boolean; strict?: boolean; config?: string }) => {
      const { config, ...rest } = opts;
      const project = config === undefined ? {} : await projectConfig(config, io, 'validate');
      if (typeof project === 'number') return done(project);
      done(validateCommand(paths, { ...rest, ...(project.impl ? { implementations: project.impl } : {}) }, io));
    });

  cmd
    .command('export-published')
    .description('write the texts the Studio published (kept under DATA_DIR when FLOWS_DIR is read-only) into a flows folder, to commit them')
    .option('--data-dir <dir>', 'the server\'s DATA_DIR', process.env.DATA_DIR ?? './data')
    .option('--out <dir>', 'the flows folder to write into', process.env.FLOWS_DIR ?? './flows')
    .action(async (opts: { dataDir: string; out: string }) => done(await (await import('./export-published.ts')).exportPublishedCommand(opts, io)));

  cmd
    .command('graph')
    .description('render a flow: mermaid, json (nodes with layout coordinates) or html (a self-contained page)')
    .argument('<flow>', 'flow file')
    .option('--format <format>', 'output format: mermaid | json (layout) | html (self-contained page)', 'mermaid')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    // Loaded on use: graph layout (dagre) and the golden recorder (Anthropic SDK)
    // are optional peer dependencies the other commands must not need.
    .action(async (file: string, opts: { format: string; output?: string }) => done(await (await import('./graph.ts')).graphCommand(file, opts, io)));

  cmd
    .command('migrate')
    .description('print the v1 flow equivalent to a v0 checklist')
    .argument('<flow>', 'v0 flow file')
    .action((file: string) => done(migrateCommand(file, io)));

  cmd
    .command('run')
    .description('play a scripted conversation (a golden transcript\'s user turns) and print the conversation and its trace')
    .argument('<flow>', 'flow file')
    .requiredOption('--script <file>', 'golden transcript (*.golden.yaml) whose user turns are played')
    .option('--json', 'print one JSON object: status, answers, turns and the whole trace')
    .option('--audit', 'audit the trace against the flow; exit 1 on any issue')
    .option('--now <iso>', 'session clock at the start (overrides the script\'s now:; default 2026-01-15T10:00:00Z)')
    .option('--locale <tag>', "the visitor's language (de, fr, es, …); overrides the script's locale:")
    .option('--config <file>', CONFIG_HELP)
    .action(async (file: string, opts: RunOptions & { config?: string }) => {
      const { config, ...rest } = opts;
      const project = await projectConfig(config, io, 'run');
      if (typeof project === 'number') return done(project);
      done(await runCommand(file, { ...rest, ...(project.impl ? { implementations: project.impl } : {}) }, io));
    });

  cmd
    .command('chat')
    .description('chat with a flow in the terminal (offline extractor); works with piped input')
    .argument('<flow>', 'flow file')
    .option('--now <iso>', 'fix the session clock (one minute per turn) instead of the real time')
    .option('--locale <tag>', "the visitor's language (de, fr, es, …): the flow's translation and the rules read replies in it")
    .option('--config <file>', CONFIG_HELP)
    .action(async (file: string, opts: { now?: string; locale?: string; config?: string }) => {
      const { config, ...rest } = opts;
      const project = await projectConfig(config, io, 'chat');
      if (typeof project === 'number') return done(project);
      done(await chatCommand(file, { ...rest, ...(project.impl ? { implementations: project.impl } : {}) }, io));
    });

  cmd
    .command('merge')
    .description('print the effective flow of a tenant (global → industry packs → tenant) or of explicit layers; --report for the merge report')
    .argument('[flow]', 'flow file, or a flow id under --flows/global')
    .option('--tenant <tenant>', 'merge this tenant\'s packs and overlays (flows/tenants/<tenant>/)')
    .option('--layers <files...>', 'merge these overlay files (and optionally the base flow file) instead')
    .option('--flows <dir>', 'the flows folder', 'flows')
    .option('--report', 'print the merge report (every change, its layer and strategy, and conflicts) instead of the flow')
    .option('--json', 'print one machine-readable JSON object on stdout')
    .action((flow: string | undefined, opts: MergeOptions) => done(mergeCommand(flow, opts, io)));

  cmd
    .command('test')
    .description('run golden transcripts (files or folders; default test/golden and flows); exit 1 if any fails')
    .argument('[paths...]', 'golden files or folders')
    .option('--update', 'rewrite the trace snapshots with what the flows do now')
    .option('--ci', 'a missing trace snapshot fails instead of being written (also when CI is set)')
    .option('--coverage', 'report, per flow, the nodes, edges, guard arms, invalid/failure edges and path locks exercised')
    .option('--json', 'print one machine-readable report on stdout')
    .option('--flows <dir>', 'the flows folder (for tenants and flow ids)', 'flows')
    .option('--record', 'run against the live model (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL, ANTHROPIC_MODEL) and write each turn\'s llm: block (extractor: replay)')
    .option('--config <file>', CONFIG_HELP)
    .action(async (paths: string[], opts: TestOptions & { config?: string }) => {
      const { config, ...rest } = opts;
      const project = await projectConfig(config, io, 'test');
      if (typeof project === 'number') return done(project);
      done(await (await import('./test.ts')).testCommand(paths, { ...rest, ...(project.impl ? { implementations: project.impl } : {}) }, io));
    });

  cmd
    .command('eval')
    .description('run labelled replies (case files or folders) through the extractor and the engine; print correct / clarified / silently wrong per answer type; exit 1 if any is silently wrong')
    .argument('<cases...>', 'case files (*.yaml) or folders of them')
    .option('--extractor <name>', 'rules (offline, default) | claude (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL, ANTHROPIC_MODEL) | replay (--cassettes)')
    .option('--json', 'print one machine-readable JSON object on stdout')
    .option('--record <dir>', 'with claude: write each case\'s tool calls to <dir>/<cases>.cassette.yaml')
    .option('--cassettes <dir>', 'with replay: where the cassettes are')
    .option('--verbose', 'also list the clarified cases')
    .option('--red-flags', 'the files are red-flag sets (emergencies, ordinary): send each as the first and the second reply of a --flow session; print caught / missed / false alarms; exit 1 on any')
    .option('--flow <id>', 'the flow id (with --red-flags: default flow.patient_intake; else default the tenant\'s only flow)')
    .option('--tenant <id>', 'run the tenant\'s merged flow (with --red-flags); judge every case question that is a question of that flow with its declaration (synonyms, examples, labels), overriding the files\' flow: header')
    .option('--flows <dir>', 'the flows folder (default flows)')
    .option('--labels-only', 'judge every case question as the file declares it, ignoring a flow: header')
    .action(async (paths: string[], opts: EvalOptions & { redFlags?: boolean; flow?: string; tenant?: string; flows?: string }) => {
      const { redFlags, flow, tenant, flows, ...rest } = opts;
      if (redFlags) {
        return done(await (await import('./eval-red-flags.ts')).redFlagCommand(paths, { ...(flow ? { flow } : {}), ...(tenant ? { tenant } : {}), ...(flows ? { flows } : {}), ...(rest.json ? { json: true } : {}) }, io));
      }
      const through = tenant || flow ? { through: { ...(tenant ? { tenant } : {}), ...(flow ? { id: flow } : {}), ...(flows ? { flows } : {}) } } : {};
      done(await (await import('./eval.ts')).evalCommand(paths, { ...rest, ...through }, io));
    });

  cmd
    .command('serve')
    .description('run the server (same as npm start); configured by PORT, HOST, DATA_DIR, FLOWS_DIR, ADMIN_KEY… (see README)')
    .option('--config <file>', CONFIG_HELP)
    .action(async (opts: { config?: string }) => {
      const { runFromEnv } = await import('../main.ts'); // loaded on demand: the other commands need no server code
      await runFromEnv(opts.config !== undefined ? { configFile: opts.config } : {});
    });

  cmd
    .command('insights')
    .description('the funnel\'s stored counts (docs/insights.md)')
    .command('rebuild')
    .description('recompute the funnel counts from the stored sessions (STORE, DATA_DIR or REDIS_URL, FLOWS_DIR) and replace them; stop a lowdb server first')
    .option('--check', 'only compare with the maintained counts; exit 1 if they differ')
    .option('--json', 'print a machine-readable report')
    .action(async (opts: { check?: boolean; json?: boolean }) => {
      const { insightsRebuildCommand } = await import('./insights.ts'); // loaded on demand: the other commands need no server code
      done(await insightsRebuildCommand(opts, io));
    });

  cmd
    .command('schema')
    .description('print the JSON Schema of flow files (generated from the zod IR)')
    .option('--write <file>', 'write it to a file instead')
    .option('--check <file>', 'exit 1 if the file differs from the generated schema')
    .action((opts: { write?: string; check?: string }) => {
      const text = flowDocumentJsonSchemaText();
      if (opts.check) {
        let current = '';
        try {
          current = readFileSync(opts.check, 'utf8');
        } catch { /* missing counts as stale */ }
        if (current !== text) {
          io.err(`${opts.check}: stale; run npm run schema`);
          return done(EXIT_FAILED);
        }
        return done(EXIT_OK);
      }
      if (opts.write) {
        writeFileSync(opts.write, text);
        io.err(`wrote ${opts.write}`);
      } else io.out(text);
      done(EXIT_OK);
    });
  return cmd;
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let code = EXIT_OK;
  const cmd = program(io, (c) => {
    code = c;
  });
  if (argv.length === 0) {
    cmd.outputHelp();
    return EXIT_OK;
  }
  try {
    await cmd.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version' ? EXIT_OK : EXIT_USAGE;
    }
    io.err(`questline: internal error: ${(err as Error).stack ?? String(err)}`);
    return EXIT_FAILED;
  }
  return code;
}
