import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** How often, while the server closes, the connections that have become idle are closed. */
const SWEEP_MS = 50;

/**
 * A close that does not wait for timeouts. Fastify closes the server after its preClose hooks and then closes the
 * connections idle at that moment (`forceCloseConnections: 'idle'`). Two kinds of connection escaped that, and Node
 * kept them open, holding `app.close()`:
 *
 * - a keep-alive connection whose answer was still on its way (a request in flight at SIGTERM, an event stream the
 *   live feeds end in their own preClose hook): it turns idle a moment later, and stays open until the keep-alive
 *   timeout, 72 s;
 * - a connection opened that never sent a byte (a browser's speculative preconnect, a client's spare): it stays open
 *   until the socket's idle timeout, 60 s. A stop then outlasted `SHUTDOWN_TIMEOUT_MS` and the process exited 1
 *   without closing its database.
 *
 * So, from the first preClose hook until the server has closed, both kinds are closed every 50 ms; a connection that
 * has begun a request, or waits for its answer, is left to finish.
 */
async function draining(app: FastifyInstance) {
  const server = app.server;
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const sweep = () => {
    server.closeIdleConnections();
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  };
  app.addHook('preClose', (done) => {
    if (server.listening) {
      const timer = setInterval(sweep, SWEEP_MS).unref();
      server.once('close', () => clearInterval(timer));
    }
    done();
  });
}

export default fp(draining, { name: 'collecte-draining' });
