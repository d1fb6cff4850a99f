// The public wire protocol: what a client (the widget, the operator console,
// an integrator's own code) sends and receives. Zod schemas and their
// z.infer types; browser code imports the schemas as types only and the
// run-time values from the zod-free files (limits.ts, statuses.ts, roles.ts).

export { LIMITS } from './limits.ts';
export { ENDED_STATUSES, isEnded, STATUSES, type StatusName } from './statuses.ts';
export { MESSAGE_EVENTS, messageEvent, ROLES, type MessageEvent, type RoleName } from './roles.ts';
export { EntryKind, InputHint, MessageTone, Progress, Role, SessionState, Status, TranscriptEntry } from './session.ts';
export { ErrorAck, ErrorBody, ErrorCode, WireError, WireErrorCode } from './errors.ts';
export {
  ChatAuth, ClientContext, ClientId, Decision, EmptyPayload, HandBack, MessageBody, MessagePayload, OperatorAuth, OperatorDecision,
  OperatorClose, OperatorHandBack, OperatorJoin, OperatorMessage, OperatorMessageBody, parsePayload, SessionId, SessionStartPayload, StartBody,
} from './wire.ts';
export {
  BackAck, JoinAck, LeaveAck, MessageAck, OperatorAck, RestartAck, SessionEndEvent, SessionStateEvent, StartAck, toWire, TypingEvent, WireMessage,
} from './outgoing.ts';
export { SessionList, SessionListQuery, SessionRow, VisitorLabel } from './admin-sessions.ts';
export type { ChatClientEvents, ChatSocketData, OperatorClientEvents, OperatorSocketData, SessionRoomEvents } from './socket-events.ts';
