export { AnthropicExtractor, DEFAULT_MODEL, INSTANCE, toolCalls, type AnthropicEvent, type AnthropicExtractorOptions, type FallbackReason, type LlmStats } from './anthropic-extractor.ts';
export { exactRule, SHORT_TEXT_WORDS, type ExactRule } from './hybrid.ts';
export { SYSTEM_PROMPT, turnPrompt, HISTORY_TURNS } from './prompt.ts';
export { answerable, toolsFor, valueJsonSchema, type ToolDef } from './schema.ts';
