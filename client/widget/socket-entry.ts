// The lazily loaded part of the widget, served as /widget-socket.js:
// socket.io-client, about half of the widget's bytes. widget.js loads it only
// when a conversation starts (the chat is opened, or a stored session is
// resumed), so a page view where nobody chats never downloads it.
import { io } from 'socket.io-client';

(window as unknown as { __questlineIo?: typeof io }).__questlineIo = io;
