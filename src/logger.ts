import pino, { type Logger } from 'pino';

/** Structured JSON logs; human-readable only when a person is watching the terminal. */
export function createLogger(level: string): Logger {
  const pretty = process.stdout.isTTY;
  return pino({
    level,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  });
}
