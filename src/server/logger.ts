import pino from 'pino';

// Structured logs. Authorization headers and bodies are never logged (see http/logging.ts).
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: undefined,
  redact: ['req.headers.authorization', 'authorization', 'password', 'token', 'card'],
});
