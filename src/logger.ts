import pino, { type Logger } from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** Structured JSON logs; human-readable only when a person is watching the terminal. */
export function createLogger(level: string): Logger {
  const pretty = process.stdout.isTTY;
  return pino({
    level,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  });
}

/** What a redacted part of a URL reads as in the log. */
export const REDACTED = '[redacted]';

/**
 * Path segments that are bearer secrets: a device id lists that device's conversations, progress and reminder
 * subscriptions, a conversation id reads and writes the conversation, through the public API. Whoever reads the logs
 * must learn neither. (The subscription id that DELETE puts in the same place goes too: no secret, but nothing lost.)
 */
const SECRET_SEGMENTS = [
  /^(\/public\/chat\/conversations\/)[^/?#]+/i,
  /^(\/public\/challenges\/progress\/)[^/?#]+/i,
  /^(\/public\/reminders\/subscriptions\/)[^/?#]+/i,
  /^(\/chat\/conversations\/)[^/?#]+/i,
];

/** Query parameters that carry a device id, or the signed token of an e-mail's link (it confirms or unsubscribes alone). */
const SECRET_PARAMETER = /^(?:device_?id|token)$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A request URL as the log shows it: secret path segments and deviceId parameters replaced by `[redacted]`, the rest
 * left as it came so that the route is still recognisable (`/public/chat/conversations/[redacted]/messages`).
 * The path is matched decoded too, as the router matches it (`%63onversations` is `conversations`).
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  let path = at < 0 ? url : url.slice(0, at);
  for (const pattern of SECRET_SEGMENTS) {
    const plain = decoded(path);
    if (pattern.test(path)) path = path.replace(pattern, `$1${REDACTED}`);
    else if (pattern.test(plain)) path = plain.replace(pattern, `$1${REDACTED}`);
  }
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0];
      return SECRET_PARAMETER.test(decoded(name.replace(/\+/g, ' '))) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's request serializer (method, url, host, remote address) with the URL redacted. */
function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger the application logs requests with: any logger given, with request URLs redacted. */
export function withRedactedRequests(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { serializers: { req: requestSerializer } });
}
