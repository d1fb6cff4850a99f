import type { io as ioFunction } from 'socket.io-client';
import { loadGlobal } from './load-global.ts';

export type Io = typeof ioFunction;

/** socket.io-client from `SERVER/widget-socket.js`, loaded once per page. */
export const loadSocketIo = (server: string): Promise<Io> => loadGlobal<Io>(`${server.replace(/\/+$/, '')}/widget-socket.js`, '__questlineIo');
