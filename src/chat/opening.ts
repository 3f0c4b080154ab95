import { openingStateAt } from '../domain/opening-hours.ts';
import { frenchMomentFrom } from '../kernel/french.ts';
import type { CityApi } from '../domain/city-model/schemas.ts';
import type { CityKnowledge } from './knowledge.ts';
import { contentTokens, hasWord, tokenize } from './text-match.ts';
import { OPENING_WORDS } from './lexicon.ts';

/**
 * « La déchèterie est-elle ouverte ? »: whether the city's points are open now and when that changes, from the
 * domain's evaluation of their `opening_hours` spec (domain/opening-hours.ts, the one GET
 * /public/cities/:cityId/recycling-points computes openNow and nextChange with, on the city's public holidays),
 * never from the free text.
 */

type Point = CityApi['recyclingPoints'][number];

/** Words asking about the state. Typos are not forgiven: « ouvre » and « ferme » are short, and close to others. */
const STATE = OPENING_WORDS.state;
/** Words asking for the hours rather than the state now (« quand est-elle ouverte ? », « ouverte le dimanche ? »). */
const HOURS = OPENING_WORDS.hours;
/** Words that say which point without naming it. */
const FILLER = OPENING_WORDS.filler;

/** The message asks whether a point is open now (no day, no « quand »), about points. */
export function asksOpenNow(tokens: string[], aboutPoints: boolean, dayNamed: boolean): boolean {
  if (!aboutPoints || dayNamed) return false;
  return tokens.some((t) => STATE.includes(t)) && !tokens.some((t) => HOURS.includes(t));
}

/**
 * The points a message names: those whose name holds the most of its words (« la déchetterie du Spernot » is the
 * Spernot one, « la déchèterie » both), else every point that has a spec. `text` is the message without the address
 * it gave; when it names no point, the whole message may (« le point d'apport de la rue de Siam »).
 */
export function pointsNamed(knowledge: CityKnowledge, text: string, whole: string = text): Point[] {
  const byName = (t: string) => {
    const typed = contentTokens(t).filter((w) => !FILLER.includes(w));
    const scored = knowledge.city.recyclingPoints.map((p) => {
      const name = tokenize(p.name);
      return { p, score: typed.filter((w) => hasWord(name, w)).length };
    });
    const best = Math.max(0, ...scored.map((s) => s.score));
    return scored.filter((s) => best > 0 && s.score === best).map((s) => s.p);
  };
  const named = byName(text);
  if (named.length > 0) return named;
  const inWhole = whole === text ? [] : byName(whole);
  if (inWhole.length > 0) return inWhole;
  const withSpec = new Set(knowledge.points.filter((p) => p.openingHoursSpec !== null).map((p) => p.id));
  return knowledge.city.recyclingPoints.filter((p) => withSpec.has(p.id));
}

/** A point's state at `now` for the language model's tools: null without a spec. */
export function pointStateNow(knowledge: CityKnowledge, pointId: string, now: Date): { openNow: boolean; nextChange: string | null } | null {
  const spec = knowledge.points.find((p) => p.id === pointId)?.openingHoursSpec ?? null;
  if (spec === null) return null;
  const state = openingStateAt(spec, now, knowledge.timeZone, knowledge.holidayCalendar);
  return { openNow: state.openNow, nextChange: state.nextChange && frenchMomentFrom(state.nextChange, now, knowledge.timeZone) };
}

/** « ouvert en ce moment, fermeture aujourd’hui à 17 h 30 » for a spec at `now`, and whether it is open. */
function stateNow(spec: string, knowledge: CityKnowledge, now: Date): { open: boolean; words: string } {
  const state = openingStateAt(spec, now, knowledge.timeZone, knowledge.holidayCalendar);
  const change = state.nextChange
    ? `, ${state.openNow ? 'fermeture' : 'ouverture'} ${frenchMomentFrom(state.nextChange, now, knowledge.timeZone)}`
    : state.openNow
      ? ', à toute heure'
      : '';
  return { open: state.openNow, words: `${state.openNow ? 'ouvert' : 'fermé'} en ce moment${change}` };
}

/**
 * « Oui, Déchèterie du Spernot : ouvert en ce moment, fermeture aujourd’hui à 17 h 30. » for the point named, one
 * line each (« oui » or « non » first) when several are, then the hours as the city writes them.
 */
export function openNowAnswer(knowledge: CityKnowledge, text: string, now: Date, whole: string = text): string {
  const points = pointsNamed(knowledge, text, whole);
  if (points.length === 0) {
    return `Les données de ${knowledge.city.name} ne donnent les horaires d’aucun point de collecte. Si vous le souhaitez, écrivez « parler à un agent » et un conseiller prendra le relais.`;
  }
  const specs = new Map(knowledge.points.map((p) => [p.id, p.openingHoursSpec]));
  const hours = (p: Point) => (p.openingHours ? `Horaires : ${p.openingHours}` : '');
  const answers = points.map((p) => {
    const spec = specs.get(p.id) ?? null;
    if (spec === null) return { p, line: `${p.name} : je n’ai pas ses horaires sous une forme qui me permette de dire s’il est ouvert maintenant.` };
    const state = stateNow(spec, knowledge, now);
    return { p, line: `${state.open ? 'oui' : 'non'}, ${p.name} : ${state.words}.` };
  });
  if (answers.length === 1) {
    const [{ p, line }] = answers;
    return [line.charAt(0).toUpperCase() + line.slice(1), hours(p)].filter(Boolean).join('\n');
  }
  return [`À ${knowledge.city.name} :`, ...answers.map(({ p, line }) => `- ${line}${p.openingHours ? ` ${hours(p)}` : ''}`)].join('\n');
}
