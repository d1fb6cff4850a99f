// `questline/server`: the HTTP + socket.io server. Redis and the Anthropic
// SDK are optional peer dependencies, needed only when configured.

export { startServer, StartupError, type RunningServer, type ServerOverrides } from '../main.ts';
export { loadConfig, ConfigError, type Config } from '../config.ts';
