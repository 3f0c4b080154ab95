import { openingStateAt } from '../domain/opening-hours.ts';
import { dayInTimeZone, formatDayNumber, isoWeekdayIndex, startOfDayIn, wallClockParts, FRENCH_WEEKDAYS, type DayNumber } from '../kernel/dates.ts';
import { frenchDate, frenchList, frenchTime } from '../kernel/french.ts';
import { frenchHolidayName } from '../kernel/holidays.ts';
import type { CityApi } from '../domain/city-model/schemas.ts';
import type { CityKnowledge } from './knowledge.ts';
import { dayAsked } from './dates.ts';
import { contentTokens, hasWord, normalizeText, tokenize } from './text-match.ts';
import { OPENING_WORDS, SORTING_WORDS } from './lexicon.ts';

/**
 * A named point's hours on one day: « les horaires de la déchèterie du Vern samedi prochain » is answered with that
 * Saturday's hours, computed from the point's `opening_hours` spec on the city's wall clock and public holidays (the
 * evaluation GET /public/cities/:cityId/recycling-points uses, domain/opening-hours.ts), not with its whole text. And
 * a point named by words no point's name holds (« le point d'apport de la gare ») is said unknown, never answered
 * with every point.
 */

type Point = CityApi['recyclingPoints'][number];

const WEEK = 7;

/**
 * The day a question about a point's hours names: « demain », « aujourd'hui », a date, a holiday, « samedi »,
 * « ce samedi », « samedi prochain » (the coming one; a week on when today is Saturday). « le samedi » asks the habit,
 * not a day: null, and the hours as the city writes them answer it.
 */
export function pointDayAsked(text: string, today: DayNumber): DayNumber | null {
  const dated = dayAsked(text, today);
  if (dated) return dated.day;
  const t = normalizeText(text);
  for (const [index, weekday] of FRENCH_WEEKDAYS.entries()) {
    const named = new RegExp(`\\b(le |les )?${weekday}s?( prochain)?\\b`).exec(t);
    if (!named) continue;
    const next = named[2] !== undefined;
    if (named[1] && !next) return null;
    const ahead = (index - isoWeekdayIndex(today) + WEEK) % WEEK;
    return today + (ahead === 0 && next ? WEEK : ahead);
  }
  return null;
}

/** Words that never name a point: how hours are asked, days, the kinds of point themselves. */
const NOT_A_NAME = new Set([
  ...OPENING_WORDS.filler,
  ...OPENING_WORDS.hours,
  ...OPENING_WORDS.state,
  ...SORTING_WORDS.pointFiller,
  ...tokenize('jusqu quelle heure heures horaire ouverte fermee prochain prochaine aujourd hui demain volontaire collecte recyclage tri verre'),
]);

/** The words after « point d'apport de la », « déchèterie du », « borne de »… that would name one. */
const NAMED_AFTER = /\b(?:point (?:d apport|de collecte|de recyclage|de tri)(?: volontaire)?|decheterie|dechetterie|borne|conteneur|container|colonne)s? (?:de la|de l|du|des|de|d) ([a-z0-9 ]+)/;

/**
 * The name words a question gives a point (« gare » in « le point d'apport de la gare »), without the city's own name
 * (« la déchèterie de Brest »); [] when it names none that way.
 */
export function pointNameWords(knowledge: CityKnowledge, text: string): string[] {
  const found = NAMED_AFTER.exec(normalizeText(text));
  if (!found) return [];
  const city = new Set(tokenize(knowledge.city.name));
  return contentTokens(found[1])
    .slice(0, 3)
    .filter((w) => !NOT_A_NAME.has(w) && !city.has(w) && !/^\d+$/.test(w));
}

/** A point is named by words no point's name holds (« gare »): those words, else null. */
export function unknownPointWords(knowledge: CityKnowledge, text: string): string[] | null {
  const words = pointNameWords(knowledge, text);
  if (words.length === 0) return null;
  const known = knowledge.city.recyclingPoints.some((p) => {
    const name = tokenize(p.name);
    return words.some((w) => hasWord(name, w));
  });
  return known ? null : words;
}

/** « Je ne trouve pas de point nommé « gare » à Brest », and the points there are. */
export function unknownPointAnswer(knowledge: CityKnowledge, text: string): string {
  const words = normalizeText(text).match(NAMED_AFTER)?.[1]?.split(' ').slice(0, 3).join(' ') ?? '';
  const points = knowledge.city.recyclingPoints.map((p) => `- ${p.name}`);
  const list = points.length > 0 ? `\nLes points de collecte de ${knowledge.city.name}\u00a0:\n${points.join('\n')}\nDites-moi lequel, et je vous donne ses horaires.` : '';
  return `Je ne trouve pas de point de collecte «\u00a0${words}\u00a0» à ${knowledge.city.name}.${list}`;
}

/** The spans a spec is open on a day, as wall-clock times (« 9 h », « 17 h 30 »); `allDay` when open from end to end. */
function openSpans(spec: string, knowledge: CityKnowledge, day: DayNumber): { spans: [string, string][]; allDay: boolean } {
  const start = startOfDayIn(day, knowledge.timeZone);
  const end = startOfDayIn(day + 1, knowledge.timeZone);
  const time = (at: Date) => {
    const [, , , h, m] = wallClockParts(at, knowledge.timeZone);
    return frenchTime(h, m);
  };
  const spans: [string, string][] = [];
  let at = start;
  let state = openingStateAt(spec, at, knowledge.timeZone, knowledge.holidayCalendar);
  let openedAt: Date | null = state.openNow ? start : null;
  // A day holds a few changes at most; the bound only guards against a spec that changes every minute.
  for (let i = 0; i < 48 && state.nextChange !== null && state.nextChange < end; i++) {
    at = state.nextChange;
    state = openingStateAt(spec, at, knowledge.timeZone, knowledge.holidayCalendar);
    if (state.openNow && openedAt === null) openedAt = at;
    if (!state.openNow && openedAt !== null) {
      spans.push([time(openedAt), time(at)]);
      openedAt = null;
    }
  }
  const allDay = openedAt !== null && openedAt.getTime() === start.getTime() && spans.length === 0;
  if (openedAt !== null && !allDay) spans.push([time(openedAt), '24\u00a0h']);
  return { spans, allDay };
}

/**
 * « Déchèterie du Vern, samedi 28 novembre : de 9 h à 17 h 30. » for each point, on the day asked; a day it does not
 * open is said so, with the holiday's name when it is one.
 */
export function pointDayAnswer(knowledge: CityKnowledge, pointIds: readonly string[], day: DayNumber, now: Date): string {
  const today = dayInTimeZone(now, knowledge.timeZone);
  const date = frenchDate(formatDayNumber(day));
  const when = day === today ? `aujourd’hui, ${date}` : day === today + 1 ? `demain, ${date}` : date;
  const holiday = frenchHolidayName(day, knowledge.holidayCalendar);
  const specs = new Map(knowledge.points.map((p) => [p.id, p.openingHoursSpec]));
  const points = knowledge.city.recyclingPoints.filter((p) => pointIds.includes(p.id));
  const lines = points.map((p: Point) => {
    const spec = specs.get(p.id) ?? null;
    if (spec === null) return `${p.name}, ${when}\u00a0: je n’ai pas ses horaires sous une forme qui me permette de le dire.${p.openingHours ? ` Horaires\u00a0: ${p.openingHours}` : ''}`;
    const { spans, allDay } = openSpans(spec, knowledge, day);
    if (allDay) return `${p.name}, ${when}\u00a0: accessible toute la journée.`;
    if (spans.length === 0) return `${p.name}, ${when}\u00a0: fermé ce jour-là${holiday ? ` (jour férié\u00a0: ${holiday})` : ''}.`;
    return `${p.name}, ${when}\u00a0: ouvert ${frenchList(spans.map(([from, to]) => `de ${from} à ${to}`))}${holiday ? ` (jour férié\u00a0: ${holiday})` : ''}.`;
  });
  return lines.join('\n');
}
