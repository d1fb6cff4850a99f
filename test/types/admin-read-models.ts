// The operator console's read models (client/admin/types.ts) are views of
// the admin REST routes, not wire protocol: they are declared in the browser
// code because their sources (server/transport/http/admin-views.ts,
// server/render/graph-layout.ts) are server modules the client may not
// import. Here, compiled with the server (`tsc -p .`, run by
// test/unit/typecheck.test.ts), each is held to its source: what the server
// sends must be assignable to what the console expects, so a field renamed
// or retyped on one side fails the build. (The wire protocol needs no such
// check: the clients import it from server/protocol, and so does the
// sessions list, server/protocol/admin-sessions.ts.)
import type * as Admin from '../../client/admin/types.ts';
import type { GraphLayout } from '../../server/render/graph-layout.ts';
import type { AnswerView, HandBackTarget, Trail } from '../../server/transport/http/admin-views.ts';

/** Compiles only when every `From` is assignable to `To`. */
type Fits<From extends To, To> = [From, To];

export type AdminReadModels = [
  Fits<AnswerView, Admin.AnswerView>,
  Fits<Trail, Admin.Trail>,
  Fits<HandBackTarget, Admin.HandBackTarget>,
  Fits<GraphLayout, Admin.GraphLayout>,
];
