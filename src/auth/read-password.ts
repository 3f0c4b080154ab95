/**
 * Reads one password from standard input: the first line of what is piped in, or, on a terminal, a line typed at a
 * prompt without echo. Null when there is none (empty input, Ctrl-C, Ctrl-D).
 */
export async function readPassword(prompt: string): Promise<string | null> {
  const stdin = process.stdin;
  if (stdin.isTTY) return readHidden(prompt);
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) {
    text += chunk;
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0];
  return line === '' ? null : line;
}

function readHidden(prompt: string): Promise<string | null> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve) => {
    let line = '';
    const finish = (value: string | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(line === '' ? null : line);
        // Ctrl-C, Ctrl-D
        if (char === '\u0003' || char === '\u0004') return finish(null);
        if (char === '\u007f' || char === '\b') line = [...line].slice(0, -1).join('');
        else line += char;
      }
    };
    stdin.on('data', onData);
  });
}
