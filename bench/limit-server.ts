/**
 * The physical limit for a response on this machine: a minimal Fastify process that answers the very bytes
 * the service answered (headers included), from memory, with no work per request.
 * Usage: node bench/limit-server.ts <captured.json> <port>
 */
import fs from 'node:fs';
import Fastify from 'fastify';

interface Captured {
  key: string;
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

const [file, port] = process.argv.slice(2);
const captured: Captured[] = JSON.parse(fs.readFileSync(file, 'utf8'));
const responses = new Map(captured.map((c) => [c.key, { ...c, bytes: Buffer.from(c.body, 'base64') }]));

const app = Fastify({ logger: false });
app.all('/*', (request, reply) => {
  const encoding = request.headers['accept-encoding']?.includes('br') ? 'br' : 'identity';
  const found = responses.get(`${request.method} ${request.url} ${encoding}`);
  if (!found) return reply.code(404).send();
  reply.code(found.status).headers(found.headers).send(found.bytes);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
