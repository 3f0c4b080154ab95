import type { Transporter } from 'nodemailer';

/**
 * E-mail for every area that writes to residents (reminders, requests): the SMTP sender, what a message holds, and the
 * French HTML around it and around the pages its links open.
 */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** An e-mail's HTML: paragraphs already escaped (they may hold links). */
export function htmlMail(title: string, paragraphs: string[]): string {
  return (
    `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:sans-serif;line-height:1.5">${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`
  );
}

/** The page a link of an e-mail opens in a browser: `body` already escaped. */
export function linkPage(title: string, body: string): string {
  return (
    `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
  );
}

/** How long one e-mail may take to hand to the SMTP server before it counts as failed (and is retried). */
const SMTP_TIMEOUT_MS = 15_000;

export interface OutgoingMail extends MailContent {
  to: string;
  /** Without the angle brackets; stable across retries so that a duplicate is recognisable. */
  messageId?: string;
  unsubscribeUrl: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * nodemailer, loaded at the first e-mail rather than at start: its modules weigh about 5 MiB of heap, held for
 * nothing by an instance that sends no e-mail (none configured, or none due yet).
 */
let nodemailer: Promise<typeof import('nodemailer')> | undefined;
const loadNodemailer = () => (nodemailer ??= import('nodemailer'));

/** The SMTP sender, or null when e-mail is not configured (SMTP_URL and MAIL_FROM). */
export function createMailer(config: { smtpUrl: string | null; mailFrom: string | null }): Mailer | null {
  if (!config.smtpUrl || !config.mailFrom) return null;
  const url = new URL(config.smtpUrl);
  for (const [name, value] of [['connectionTimeout', SMTP_TIMEOUT_MS], ['greetingTimeout', SMTP_TIMEOUT_MS], ['socketTimeout', SMTP_TIMEOUT_MS]] as const) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
  }
  // Made at the first message; every later one, concurrent or not, goes through the same transport.
  let transport: Promise<Transporter> | undefined;
  const transportOf = () => (transport ??= loadNodemailer().then(({ default: mail }) => mail.createTransport(url.toString())));
  const from = config.mailFrom;
  return {
    async send(mail) {
      await (await transportOf()).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.messageId ? { messageId: `<${mail.messageId}>` } : {}),
        headers: {
          // RFC 8058: one POST on the link unsubscribes, without a page or the device.
          'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    },
    close() {
      // A transport that failed to be made has nothing to close (the send that asked for it said why).
      void transport?.then((made) => made.close(), () => {});
    },
  };
}

/** The domain of MAIL_FROM, for Message-IDs. */
export function mailDomain(config: { mailFrom: string | null }): string {
  return /@([^>\s]+)>?\s*$/.exec(config.mailFrom ?? '')?.[1] ?? 'collecte.invalid';
}
