export { OfflineExtractor } from './offline-extractor.ts';
export { votePath } from './path-vote.ts';
export { wantsHuman, wantsSkip } from './intents.ts';
export { volunteeredUpdates } from './volunteered.ts';
export { findName, NAME_KEYS } from './name.ts';
export { carriedRest } from './carried-answer.ts';
