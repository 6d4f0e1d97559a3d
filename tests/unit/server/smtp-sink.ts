/**
 * A real SMTP server for tests (`smtp-server` on 127.0.0.1, any free port): it keeps every message
 * it accepts, parsed by `mailparser`. `down()` makes it refuse every message (a 451 after DATA) so a
 * test can see retries and failures; `up()` accepts again.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  messages: ParsedMail[];
  /** Resolves once `n` messages have arrived. */
  waitFor(n: number): Promise<ParsedMail[]>;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

/** Starts a sink; close it after the tests. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const waiters: Array<{ n: number; resolve: (m: ParsedMail[]) => void }> = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusing) return callback(Object.assign(new Error('mailbox unavailable (test)'), { responseCode: 451 }));
        simpleParser(Buffer.concat(chunks), { keepCidLinks: true }).then((mail) => {
          messages.push(mail);
          for (const w of waiters.splice(0)) if (messages.length >= w.n) w.resolve(messages.slice());
          else waiters.push(w);
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor: (n) => (messages.length >= n ? Promise.resolve(messages.slice()) : new Promise((resolve) => waiters.push({ n, resolve }))),
    down: () => (refusing = true),
    up: () => (refusing = false),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
