// `questline`: flows, the engine and conversations, with no server, Redis,
// LLM SDK or graph layout loaded. Everything here is public API under the
// semver policy in CHANGELOG.md; anything not exported here is internal.

export { openFlow, type FlowDocumentInput, type OpenFlowOptions, type OpenFlowResult } from './open-flow.ts';
export { converse, type Conversation, type ConverseOptions, type Exchange } from './converse.ts';
export { setup, type QuestlineSetup, type TypedFlow } from './setup.ts';
export { defineConfig, type QuestlineConfig } from '../project-config.ts';
export { checkImplementations, type Registered } from './check-implementations.ts';
export type { RegisteredNames, FlowSource } from '../catalog/implementations-check.ts';
export { QuestlineUsageError, type UsageErrorCode } from '../shared/usage-error.ts';

// Flows: load, validate, compile.
export { compileDocument, compileFile, compileText, type DocumentResult } from '../flow/document.ts';
export { formatDiagnostic, hasErrors, sortDiagnostics, type Diagnostic } from '../flow/diagnostic.ts';
export { flowDocumentJsonSchema, outputsJsonSchema } from '../flow/json-schema.ts';
export type { CompiledFlow, CompiledNode, CompiledEdge } from '../flow/compiled-flow.ts';
export type { FlowV1, FlowV0, Overlay, ValidateRule } from '../flow/schema.ts';

// The engine: pure (flow, session, input) → (session, effects, events).
export { start, turn } from '../engine/engine.ts';
export { answerValues, sessionFromJson, sessionToJson, SESSION_VERSION, type Session, type SessionJson } from '../engine/session.ts';
export type {
  Command, Effect, EngineEvent, EngineOptions, EventType, Input, NamedValidator, Progress, StartInit, TurnResult,
} from '../engine/types.ts';

// Extraction: turning a visitor's words into proposed answers.
export { OfflineExtractor } from '../extract/offline/index.ts';
export type { Extractor, ExtractionRequest, Proposal, ProposedUpdate, OpenQuestion, HistoryEntry } from '../extract/extractor.ts';

// Conversations: the engine with its effects carried out.
export { LocalConversation, type Reply } from '../conversation/local-conversation.ts';
export type { Implementations } from '../conversation/implementations.ts';
export { systemCallEnv, type ActionHandler, type ActionRegistry, type CallEnv } from '../conversation/actions.ts';
export type { BotMessage } from '../conversation/messages.ts';

// Storage interfaces, for your own store or lock (see `questline/testing`).
export type { SessionStore, StoredSession, SaveResult, SessionSummary, TranscriptEntry, TurnWrites } from '../store/session-store.ts';
export type { TurnLock } from '../store/turn-lock.ts';
export { MemoryStore } from '../store/memory.ts';
