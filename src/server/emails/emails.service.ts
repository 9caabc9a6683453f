// The store's emails: each one a row (recipient, subject, both parts, what to attach, its state), made
// once per event and kind and recipient, then sent through SMTP (SMTP_URL) or, with none configured,
// kept for the admin's Emails screen. A row is the record of what went out: sending again (after a
// failure, a restart, or the admin's Resend) never makes a second row, and a sent row is not sent again
// by the outbox.
import type { Transporter } from 'nodemailer';
import type { EmailAttachmentRef as AttachmentRef, ListPage, StoreEmail as EmailRow } from '../../lib/entities.ts';
import type { Db, Queryable } from '../db/client.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import { newId } from '../db/ids.ts';
import type { Rendered } from './templates.ts';
import type { MailAttachment, Mailer } from '../ports.ts';
import {
  countEmails,
  insertEmails,
  markFailed,
  markKept,
  markSent,
  selectEmail,
  selectPage,
  selectUnsent,
} from './emails.sql.ts';

export interface OutgoingMail {
  /** What it is: 'order-placed', 'shop-contact' … (one per event and recipient). */
  kind: string;
  to: string;
  rendered: Rendered;
  attachments?: AttachmentRef[];
}

/** The SMTP mailer of SMTP_URL, with time limits so a silent server fails the send instead of holding it. */
export function smtpMailer(url: string): Mailer {
  const smtp = new URL(url);
  const secure = smtp.protocol === 'smtps:';
  // nodemailer (~10 MiB resident) loads with the first message sent, not with every server.
  let transport: Promise<Transporter> | undefined;
  const open = async () =>
    (await import('nodemailer')).createTransport({
      host: smtp.hostname,
      port: Number(smtp.port) || (secure ? 465 : 587),
      secure,
      auth: smtp.username
        ? { user: decodeURIComponent(smtp.username), pass: decodeURIComponent(smtp.password) }
        : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  return {
    async send(message) {
      await (await (transport ??= open())).sendMail(message);
    },
  };
}

const emailJson = (r: EmailRow & { seq?: unknown }): EmailRow => ({
  id: r.id,
  kind: r.kind,
  recipient: r.recipient,
  subject: r.subject,
  text: r.text,
  html: r.html,
  attachments: (typeof r.attachments === 'string' ? JSON.parse(r.attachments) : r.attachments) as AttachmentRef[],
  state: r.state,
  attempts: r.attempts,
  lastError: r.lastError,
  createdAt: new Date(r.createdAt).toISOString(),
  sentAt: r.sentAt && new Date(r.sentAt).toISOString(),
});

export interface EmailsOptions {
  /** undefined: no SMTP configured, emails are kept. */
  mailer?: Mailer;
  from: string;
  /** The PDF of an attached document. */
  attachment(ref: AttachmentRef): Promise<MailAttachment>;
}

export function emailsService(db: Db, { mailer, from, attachment }: EmailsOptions) {
  async function send(row: EmailRow): Promise<void> {
    if (!mailer) {
      await markKept(db, row.id);
      return;
    }
    try {
      const attachments = await Promise.all(row.attachments.map(attachment));
      await mailer.send({ from, to: row.recipient, subject: row.subject, text: row.text, html: row.html, attachments });
    } catch (error) {
      await markFailed(db, row.id, (error as Error).message.slice(0, 1000));
      throw error;
    }
    await markSent(db, row.id);
  }

  return {
    /**
     * Writes events' emails in one statement (once: writing the same event's again adds nothing). With no SMTP
     * they are written kept: there is nothing more to do for them.
     */
    async record(tx: Queryable, mails: { eventSeq: number; mail: OutgoingMail }[]): Promise<void> {
      if (!mails.length) return;
      await insertEmails(
        tx,
        mails.map(({ eventSeq, mail }) => ({
          id: newId(),
          eventSeq,
          kind: mail.kind,
          recipient: mail.to,
          subject: mail.rendered.subject,
          text: mail.rendered.text,
          html: mail.rendered.html,
          attachments: mail.attachments ?? [],
        })),
        { kept: !mailer },
      );
    },

    /**
     * Sends the emails of these events that have not gone yet (with no SMTP, record() kept them). Answers the
     * events whose emails could not all be sent, each with its first error; the others' emails are all out.
     */
    async deliver(eventSeqs: number[]): Promise<Map<number, Error>> {
      const failed = new Map<number, Error>();
      if (!mailer) return failed;
      for (const row of await selectUnsent(db, eventSeqs)) {
        const seq = Number(row.event_seq);
        await send(emailJson(row)).catch((error: unknown) => {
          if (!failed.has(seq)) failed.set(seq, error instanceof Error ? error : new Error(String(error)));
        });
      }
      return failed;
    },

    async get(id: string): Promise<EmailRow | undefined> {
      const row = await selectEmail(db, id);
      return row && emailJson(row);
    },

    /** The admin's Resend: sends the email again (or keeps it again, with no SMTP). */
    async resend(id: string): Promise<EmailRow | undefined> {
      const row = await this.get(id);
      if (!row) return undefined;
      await send(row);
      return this.get(id);
    },

    /** A page of emails, newest first (the Emails screen), and how many there are. */
    async page({ limit, after }: PageAsk<number>): Promise<ListPage<EmailRow>> {
      const rows = await selectPage(db, limit, after);
      const total = await countEmails(db);
      return listPage(rows, limit, total, (r) => Number(r.seq), emailJson);
    },
  };
}
export type EmailsService = ReturnType<typeof emailsService>;
