import { escapeHtml, htmlMail, linkPage, type MailContent } from '../domain/mailer.ts';
import { frenchDate, frenchTime } from '../kernel/french.ts';

/**
 * Everything the reminders say to citizens, in French: the reminder itself, the alerts and service notices, the
 * e-mails, and the pages the e-mails' links open. No I/O.
 */

/** What a reminder or an alert carries, whatever the channel; the web push payload as it is. */
export interface ReminderMessage {
  title: string;
  body: string;
  /** The place's calendar in the web app. */
  url: string;
  /** One notification per place and day: a later one replaces it on the device. */
  tag: string;
}

/** `Demain, mardi 25 novembre : Emballages, Ordures ménagères` (no-break space before the colon). */
export function reminderBody(day: string, wasteTypeNames: readonly string[]): string {
  return `Demain, ${frenchDate(day)}\u00a0: ${wasteTypeNames.join(', ')}`;
}

export function reminderMessage(input: { dayText: string; wasteTypeNames: string[]; placeId: string; placeName: string; calendarUrl: string }): ReminderMessage {
  return {
    title: `Collecte demain – ${input.placeName}`,
    body: reminderBody(input.dayText, input.wasteTypeNames),
    url: input.calendarUrl,
    tag: `collecte-${input.placeId}-${input.dayText}`,
  };
}

/**
 * The most of a message's body a push notification carries. A notice's body may be 1000 characters, which with JSON
 * escaping could pass the 4 KiB a push service must accept; a notification shows a few lines anyway, and the e-mail
 * carries the whole text. A reminder's or an alert's body is far shorter.
 */
export const PUSH_BODY_MAX = 300;

/** The web push payload of a message: its JSON, the body cut at PUSH_BODY_MAX characters (with `…`). */
export function pushPayload(message: ReminderMessage): string {
  const chars = [...message.body];
  const body = chars.length > PUSH_BODY_MAX ? `${chars.slice(0, PUSH_BODY_MAX - 1).join('').trimEnd()}…` : message.body;
  return JSON.stringify({ ...message, body });
}

/**
 * What a service notice says to a subscriber (docs/api.md, collections that move and service notices), the same for every place it covers but for its
 * link: `Avis – Grève des agents`, `Avis important – …` for a WARNING; one notification per notice (`tag`).
 */
export function noticeMessage(notice: { id: string; title: string; body: string; severity: 'INFO' | 'WARNING' }): Omit<ReminderMessage, 'url'> {
  return {
    title: `${notice.severity === 'WARNING' ? 'Avis important' : 'Avis'} – ${notice.title}`,
    body: notice.body,
    tag: `avis-${notice.id}`,
  };
}

/** The web app's calendar of a place (web/src/main.tsx: /communes/:cityId/:placeId). */
export const calendarUrl = (origin: string, cityId: string, placeId: string) => `${origin}/communes/${cityId}/${placeId}`;


/** Said to a mailbox whose address another device already has subscribed to the place: confirming hands it over. */
const REPLACES =
  'Cette adresse reçoit déjà les rappels de ce lieu, demandés depuis un autre appareil. ' +
  'Si vous confirmez, cette nouvelle demande les remplace. Sinon, rien ne change.';

export function confirmationMail(input: {
  placeName: string;
  cityName: string;
  time: string;
  confirmUrl: string;
  unsubscribeUrl: string;
  /** The address already has another device's subscription at the place. */
  replaces?: boolean;
}): MailContent {
  const where = `${input.placeName} (${input.cityName})`;
  const when = frenchTime(Number(input.time.slice(0, 2)), Number(input.time.slice(3, 5)));
  const subject = 'Confirmez vos rappels de collecte';
  const text = [
    'Bonjour,',
    '',
    `Vous avez demandé à recevoir par e-mail, la veille de chaque collecte à ${when}, un rappel pour ${where}.`,
    ...(input.replaces ? ['', REPLACES] : []),
    '',
    `Pour confirmer, ouvrez ce lien\u00a0: ${input.confirmUrl}`,
    '',
    'Sans confirmation, rien ne vous sera envoyé et cette demande sera effacée dans 7\u00a0jours. ' +
      'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
    '',
    `Se désabonner\u00a0: ${input.unsubscribeUrl}`,
  ].join('\n');
  const html = htmlMail(subject, [
    'Bonjour,',
    `Vous avez demandé à recevoir par e-mail, la veille de chaque collecte à ${escapeHtml(when)}, un rappel pour ${escapeHtml(where)}.`,
    ...(input.replaces ? [REPLACES] : []),
    `<a href="${escapeHtml(input.confirmUrl)}">Confirmer mes rappels</a>`,
    'Sans confirmation, rien ne vous sera envoyé et cette demande sera effacée dans 7\u00a0jours. ' +
      'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
    `<a href="${escapeHtml(input.unsubscribeUrl)}">Se désabonner</a>`,
  ]);
  return { subject, text, html };
}

export function reminderMail(message: ReminderMessage, unsubscribeUrl: string): MailContent {
  const text = [message.body, '', `Voir le calendrier\u00a0: ${message.url}`, '', `Ne plus recevoir ces rappels\u00a0: ${unsubscribeUrl}`].join('\n');
  const html = htmlMail(message.title, [
    escapeHtml(message.body),
    `<a href="${escapeHtml(message.url)}">Voir le calendrier</a>`,
    `<a href="${escapeHtml(unsubscribeUrl)}">Ne plus recevoir ces rappels</a>`,
  ]);
  return { subject: message.title, text, html };
}

/** A service notice by e-mail: its whole text, paragraph by paragraph, the place's calendar and the unsubscribe link. */
export function noticeMail(message: ReminderMessage, unsubscribeUrl: string): MailContent {
  const text = [
    message.body,
    '',
    `Voir le calendrier\u00a0: ${message.url}`,
    '',
    `Ne plus recevoir les rappels et avis de collecte\u00a0: ${unsubscribeUrl}`,
  ].join('\n');
  const paragraphs = message.body
    .split(/\n\s*\n/)
    .map((paragraph) => escapeHtml(paragraph.trim()).replace(/\n/g, '<br>'))
    .filter((paragraph) => paragraph.length > 0);
  const html = htmlMail(message.title, [
    ...paragraphs,
    `<a href="${escapeHtml(message.url)}">Voir le calendrier</a>`,
    `<a href="${escapeHtml(unsubscribeUrl)}">Ne plus recevoir les rappels et avis de collecte</a>`,
  ]);
  return { subject: message.title, text, html };
}

export const pages = {
  confirmed: () => linkPage('Rappels confirmés', '<p>Merci\u00a0! Vous recevrez un rappel la veille de chaque collecte.</p>'),
  unsubscribeForm: (action: string) =>
    linkPage(
      'Se désabonner des rappels',
      '<p>Vous ne recevrez plus de rappel de collecte à cette adresse.</p>' +
        `<form method="post" action="${escapeHtml(action)}"><button type="submit">Me désabonner</button></form>`,
    ),
  unsubscribed: () => linkPage('Désabonnement effectué', '<p>Vous ne recevrez plus de rappel de collecte.</p>'),
};

/** `Emballages` → `des emballages`, `Verre` → `du verre`, `Huiles` → `des huiles`, `Huile` → `de l’huile`. */
function ofWasteType(name: string): string {
  const lower = name.toLocaleLowerCase('fr');
  if (/[sx]$/.test(lower.split(/\s+/)[0])) return `des ${lower}`;
  if (/^[aeiouyhàâéèêëîïôûü]/.test(lower)) return `de l’${lower}`;
  return `du ${lower}`;
}

/**
 * What an alert says: `Collecte des emballages du vendredi 25 décembre annulée : Noël`, `Collecte du verre du samedi
 * 26 décembre ajoutée`, and for a move both days: `Collecte des emballages du vendredi 25 décembre reportée au samedi
 * 26 décembre` (`avancée au` when the new day is earlier).
 */
export function alertBody(change: { dayText: string; wasteTypeName: string; added: boolean; reason: string | null; movedTo?: string | null }): string {
  const outcome = change.movedTo
    ? `${change.movedTo > change.dayText ? 'reportée' : 'avancée'} au ${frenchDate(change.movedTo)}`
    : change.added
      ? 'ajoutée'
      : 'annulée';
  const what = `Collecte ${ofWasteType(change.wasteTypeName)} du ${frenchDate(change.dayText)} ${outcome}`;
  return change.reason ? `${what}\u00a0: ${change.reason}` : what;
}
