import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

/**
 * A local OpenAI-compatible chat-completions server for the language-model tests: each test scripts its answers and
 * inspects every request it received.
 */

export interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
export interface CompletionRequest {
  model: string;
  messages: WireMessage[];
  tools: { function: { name: string } }[];
}
export type Script = (request: CompletionRequest, index: number) => Promise<{ status?: number; body: unknown } | 'hang'>;

export async function fakeModel(t: TestContext, script: Script) {
  const received: { body: CompletionRequest; authorization: string | undefined; url: string | undefined }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CompletionRequest;
    received.push({ body, authorization: req.headers.authorization, url: req.url });
    const answer = await script(body, received.length - 1);
    if (answer === 'hang') return; // never answers: the client must give up on its own
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, received };
}

export const completion = (message: Record<string, unknown>, usage = { prompt_tokens: 120, completion_tokens: 30 }) => ({
  body: { id: 'cmpl', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }], usage },
});

