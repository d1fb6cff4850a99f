// The browser code declares its own copies of the server's wire shapes (its
// type program must not pull in Node modules). Here, compiled with the server
// (`tsc -p .`, run by test/unit/typecheck.test.ts), each copy is held to its
// source of truth: what the server sends must be assignable to what the
// client expects, so a field renamed or retyped on one side fails the build.
import type * as Admin from '../../client/admin/types.ts';
import type * as Widget from '../../client/widget/wire.ts';
import type { SessionState } from '../../server/protocol/session.ts';
import type { GraphLayout } from '../../server/render/graph-layout.ts';
import type { AnswerView, HandBackTarget, SessionRow, Trail } from '../../server/transport/http/admin-views.ts';
import type { BackAck, MessageAck, RestartAck, StartAck, WireError, WireMessage } from '../../server/protocol/wire.ts';

/** Compiles only when every `From` is assignable to `To`. */
type Fits<From extends To, To> = [From, To];

export type ClientMirrors = [
  // /chat (the widget; the console reuses these)
  Fits<WireMessage, Widget.WireMessage>,
  Fits<SessionState, Widget.SessionState>,
  Fits<SessionState['status'], Widget.Status>,
  Fits<WireError, Widget.WireError>,
  Fits<StartAck, Widget.StartAck>,
  Fits<MessageAck, Widget.MessageAck>,
  Fits<BackAck, Widget.BackAck>,
  Fits<RestartAck, Widget.RestartAck>,
  // the operator console's admin reads
  Fits<SessionRow, Admin.SessionRow>,
  Fits<AnswerView, Admin.AnswerView>,
  Fits<Trail, Admin.Trail>,
  Fits<HandBackTarget, Admin.HandBackTarget>,
  Fits<GraphLayout, Admin.GraphLayout>,
];
