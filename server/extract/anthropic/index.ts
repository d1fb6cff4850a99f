export { AnthropicExtractor, DEFAULT_MODEL, INSTANCE, MAX_TRACKED_SESSIONS, toolCalls, type AnthropicEvent, type AnthropicExtractorOptions, type FallbackReason, type LlmStats } from './anthropic-extractor.ts';
export { exactRule, SHORT_TEXT_WORDS, type ExactRule } from './hybrid.ts';
export { SYSTEM_PROMPT, turnPrompt, HISTORY_TURNS } from './prompt.ts';
export { answerable, optionalCount, STRICT_MAX_OPTIONAL, strictSchema, supportsStrictTools, toolsFor, valueJsonSchema, type ToolDef } from './schema.ts';
