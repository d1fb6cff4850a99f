import type Anthropic from '@anthropic-ai/sdk';
import { stringify } from 'yaml';
import type { Diagnostic } from '../../flow/diagnostic.ts';

// Draft a flow from a description (the Studio's "Describe your intake"):
// Claude is made to call one tool, `write_flow`, whose input schema is the
// flow document's JSON Schema plus two or three proposed goldens; the
// compiler checks the flow, and while it has errors (at most `maxRepairs`
// rounds) the diagnostics go back to the model as the tool's result, asking
// for the whole flow again. Nothing is published: the caller gets the text.
// docs/studio.md#drafting-a-flow-from-a-description describes the prompt,
// the tool and the loop.

/** A golden the model proposes: the visitor's messages and the node the bot should ask next. */
export interface ProposedGolden {
  name: string;
  turns: Array<{ user: string; node?: string }>;
}

/** What a draft gives back. */
export interface FlowDraft {
  /** The flow as YAML (what the editor opens). */
  text: string;
  diagnostics: Diagnostic[];
  goldens: ProposedGolden[];
  /** Model calls made: 1 plus the repair rounds. */
  rounds: number;
  usage: { inputTokens: number; outputTokens: number };
}

export interface DraftFlowOptions {
  client: Pick<Anthropic, 'messages'>;
  model: string;
  description: string;
  /** The flow's language (BCP 47), default en. */
  locale?: string;
  /** The flow document's JSON Schema (flowDocumentJsonSchema()). */
  schema: Record<string, unknown>;
  /** The compiler: the diagnostics of a flow text. */
  check: (text: string) => Diagnostic[];
  /** Repair rounds after the first draft (default 3). */
  maxRepairs?: number;
  /** Asked before each call: false stops (a spent budget); the draft so far is returned. */
  admit?: () => boolean;
  /** Told after each call: its tokens (the tenant's model budget). */
  onUsage?: (tokens: number) => void;
  maxTokens?: number;
}

export const DRAFT_TOOL = 'write_flow';

/** The system prompt of a draft. */
export function draftSystemPrompt(locale: string): string {
  return [
    'You write intake flows for Questline: a graph of questions run as a chat by a checked flow language.',
    `Write the flow's visitor-facing texts (prompts, labels, say) in the language "${locale}".`,
    'Call the write_flow tool exactly once with the whole flow document (version "v1") and two or three goldens.',
    'Rules: every node has a unique id ("q.<key>" for questions); each question has a key, a prompt and an answer type;',
    'edges connect node ids ("from"/"to"), guards read answers.KEY (e.g. "answers.age < 18"); "entry" names the first node;',
    'end with a terminal node. Keep it small: the questions the description needs, nothing more.',
    'A golden is a short conversation: the visitor\'s messages in order and, for each, the id of the question the bot should ask next.',
  ].join('\n');
}

/** The write_flow tool: the flow JSON Schema and the proposed goldens. */
export function draftTool(schema: Record<string, unknown>): { name: string; description: string; input_schema: { type: 'object'; properties: Record<string, unknown>; required: string[]; $defs?: unknown } } {
  // the schema's definitions move to the tool schema's root, where its "#/$defs/…" references resolve
  const { $schema: _s, $id: _i, $defs, title: _t, ...flowSchema } = schema;
  return {
    name: DRAFT_TOOL,
    description: 'The drafted flow document and two or three goldens that exercise it.',
    input_schema: {
      type: 'object',
      ...($defs ? { $defs } : {}),
      properties: {
        flow: flowSchema,
        goldens: {
          type: 'array', minItems: 2, maxItems: 3,
          items: {
            type: 'object', required: ['name', 'turns'],
            properties: {
              name: { type: 'string', description: 'lower-case words joined by "-"' },
              turns: { type: 'array', minItems: 1, items: { type: 'object', required: ['user'], properties: { user: { type: 'string' }, node: { type: 'string', description: 'the node id the bot asks after this message' } } } },
            },
          },
        },
      },
      required: ['flow', 'goldens'],
    },
  };
}

/** Drafts a flow, repairing it with the compiler's diagnostics for at most `maxRepairs` rounds. */
export async function draftFlow(opts: DraftFlowOptions): Promise<FlowDraft> {
  const locale = opts.locale ?? 'en';
  const tool = draftTool(opts.schema);
  const maxRepairs = opts.maxRepairs ?? 3;
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: `Describe-your-intake (language ${locale}):\n\n${opts.description}` }];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let best: Pick<FlowDraft, 'text' | 'diagnostics' | 'goldens'> | undefined;
  let rounds = 0;
  for (let round = 0; round <= maxRepairs; round++) {
    if (opts.admit && !opts.admit()) break;
    const reply = await opts.client.messages.create({
      model: opts.model, max_tokens: opts.maxTokens ?? 8000, system: draftSystemPrompt(locale),
      tools: [tool as unknown as Anthropic.Tool], tool_choice: { type: 'tool', name: DRAFT_TOOL }, messages,
    });
    rounds++;
    usage.inputTokens += reply.usage.input_tokens;
    usage.outputTokens += reply.usage.output_tokens;
    opts.onUsage?.(reply.usage.input_tokens + reply.usage.output_tokens);
    const call = reply.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use' && b.name === DRAFT_TOOL);
    if (!call) throw new Error('the model did not call write_flow');
    const input = call.input as { flow?: unknown; goldens?: unknown };
    const text = stringify(input.flow ?? {}, { lineWidth: 0 });
    const diagnostics = opts.check(text);
    const goldens = Array.isArray(input.goldens) ? (input.goldens as ProposedGolden[]).slice(0, 3) : [];
    best = { text, diagnostics, goldens };
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length === 0) break;
    // the diagnostics go back as the tool's result; the model answers with the whole flow again
    messages.push({ role: 'assistant', content: reply.content as Anthropic.ContentBlockParam[] });
    messages.push({ role: 'user', content: [{
      type: 'tool_result', tool_use_id: call.id, is_error: true,
      content: `The compiler found ${errors.length} error(s) in the flow (YAML lines as written from your input):\n${errors.map((d) => `- ${d.line ?? '?'}:${d.col ?? '?'} [${d.code}] ${d.message}`).join('\n')}\nCall write_flow again with the whole corrected flow and the goldens.`,
    }] });
  }
  if (!best) throw new Error('no draft: the model budget is spent');
  return { ...best, rounds, usage };
}

/** A draft request as the Studio sends it. */
export interface DraftRequest {
  description: string;
  locale?: string;
  /** Whose model budget pays (the tenant's daily caps and the process's). */
  tenant?: string;
}

/** Drafts a flow for a request (what the server builds when ANTHROPIC_API_KEY is set). */
export type Drafter = (req: DraftRequest) => Promise<FlowDraft>;
