import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { MailContent } from './messages.ts';

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

/** The SMTP sender, or null when e-mail is not configured (SMTP_URL and MAIL_FROM). */
export function createMailer(config: Config): Mailer | null {
  if (!config.smtpUrl || !config.mailFrom) return null;
  const url = new URL(config.smtpUrl);
  for (const [name, value] of [['connectionTimeout', SMTP_TIMEOUT_MS], ['greetingTimeout', SMTP_TIMEOUT_MS], ['socketTimeout', SMTP_TIMEOUT_MS]] as const) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
  }
  const transport = nodemailer.createTransport(url.toString());
  const from = config.mailFrom;
  return {
    async send(mail) {
      await transport.sendMail({
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
    close: () => transport.close(),
  };
}

/** The domain of MAIL_FROM, for Message-IDs. */
export function mailDomain(config: Config): string {
  return /@([^>\s]+)>?\s*$/.exec(config.mailFrom ?? '')?.[1] ?? 'collecte.invalid';
}
