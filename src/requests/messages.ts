import { escapeHtml, htmlMail, linkPage, type MailContent } from '../domain/mailer.ts';
import { frenchDate, frenchMoment } from '../kernel/french.ts';
import type { RequestStatus } from './schemas.ts';

/** What requests say to requesters in French: the e-mails and the tracking page. No I/O. */

/** A status as residents read it. */
export const STATUS_WORDS: Record<RequestStatus, string> = {
  RECUE: 'reçue',
  EN_COURS: 'en cours de traitement',
  PLANIFIEE: 'planifiée',
  RESOLUE: 'résolue',
  REJETEE: 'rejetée',
  ANNULEE: 'annulée',
};

export interface MailRequest {
  reference: string;
  typeName: string;
  status: RequestStatus;
  plannedFor: string | null;
  createdAt: Date;
  timeZone: string;
}

export interface MailLinks {
  trackUrl: string;
  unsubscribeUrl: string;
}

/** `planifiée le jeudi 3 décembre`, `résolue`. */
const statusText = (status: RequestStatus, plannedFor: string | null) =>
  status === 'PLANIFIEE' && plannedFor ? `${STATUS_WORDS.PLANIFIEE} le ${frenchDate(plannedFor)}` : STATUS_WORDS[status];

function mail(subject: string, lines: string[], links: MailLinks): MailContent {
  const text = [
    'Bonjour,',
    '',
    ...lines.flatMap((line) => [line, '']),
    `Suivre votre demande\u00a0: ${links.trackUrl}`,
    '',
    `Ne plus recevoir de messages sur cette demande\u00a0: ${links.unsubscribeUrl}`,
  ].join('\n');
  const html = htmlMail(subject, [
    'Bonjour,',
    ...lines.map((line) => escapeHtml(line).replace(/\n/g, '<br>')),
    `<a href="${escapeHtml(links.trackUrl)}">Suivre votre demande</a>`,
    `<a href="${escapeHtml(links.unsubscribeUrl)}">Ne plus recevoir de messages sur cette demande</a>`,
  ]);
  return { subject, text, html };
}

/** The receipt: the reference to quote, and where to follow it. */
export function receiptMail(request: MailRequest, links: MailLinks): MailContent {
  return mail(
    `Demande ${request.reference} reçue\u00a0: ${request.typeName}`,
    [
      `Votre demande «\u00a0${request.typeName}\u00a0» a bien été reçue le ${frenchMoment(request.createdAt, request.timeZone)}.`,
      ...(request.status === 'PLANIFIEE' && request.plannedFor
        ? [`Enlèvement prévu le ${frenchDate(request.plannedFor)}\u00a0: vous pouvez annuler ce rendez-vous dans «\u00a0Mes demandes\u00a0» jusqu’à midi la veille.`]
        : []),
      `Sa référence est ${request.reference}\u00a0: rappelez-la si vous contactez le service.`,
    ],
    links,
  );
}

/** A booking's evening-before message: the pickup is tomorrow, what to put out and when. */
export function pickupEveMail(request: MailRequest & { plannedFor: string }, items: string | null, links: MailLinks): MailContent {
  return mail(
    `Demain, ${frenchDate(request.plannedFor)}\u00a0: enlèvement de vos encombrants`,
    [
      `L’enlèvement de vos encombrants est prévu demain, ${frenchDate(request.plannedFor)} (demande ${request.reference}).`,
      ...(items ? [`Objets annoncés\u00a0: ${items}`] : []),
      'Sortez-les ce soir devant chez vous, sans gêner le passage, uniquement les objets annoncés.',
    ],
    links,
  );
}

/** One public update: a status change (with its reason) or a reply of the service. */
export function updateMail(request: MailRequest, update: { status: RequestStatus | null; message: string | null }, links: MailLinks): MailContent {
  if (update.status === null) {
    return mail(
      `Demande ${request.reference}\u00a0: réponse du service`,
      [`Le service a répondu à votre demande «\u00a0${request.typeName}\u00a0» (${request.reference})\u00a0:`, update.message ?? ''],
      links,
    );
  }
  const what = statusText(update.status, request.plannedFor);
  return mail(
    `Demande ${request.reference}\u00a0: ${what}`,
    [`Votre demande «\u00a0${request.typeName}\u00a0» (${request.reference}) est ${what}.`, ...(update.message ? [update.message] : [])],
    links,
  );
}

/** The tracking page a link opens: the request's status and its public history. */
export function trackingPage(request: MailRequest & { updates: { at: string; status: RequestStatus | null; message: string | null }[] }): string {
  const history = request.updates
    .map((u) => {
      const when = frenchMoment(new Date(u.at), request.timeZone);
      const what = u.status === null ? 'Réponse du service' : `Demande ${STATUS_WORDS[u.status]}`;
      return `<li><strong>${escapeHtml(when)}</strong> — ${escapeHtml(what)}${u.message ? `\u00a0: ${escapeHtml(u.message)}` : ''}</li>`;
    })
    .join('');
  return linkPage(
    `Demande ${request.reference}`,
    `<p>${escapeHtml(request.typeName)}\u00a0: ${escapeHtml(statusText(request.status, request.plannedFor))}.</p><ol>${history}</ol>`,
  );
}

export const stopPages = {
  form: (action: string) =>
    linkPage(
      'Ne plus recevoir de messages',
      '<p>Vous ne recevrez plus de message sur cette demande. Elle reste traitée et vous pouvez la suivre dans l’application.</p>' +
        `<form method="post" action="${escapeHtml(action)}"><button type="submit">Ne plus recevoir de messages</button></form>`,
    ),
  done: () => linkPage('C’est noté', '<p>Vous ne recevrez plus de message sur cette demande.</p>'),
};
