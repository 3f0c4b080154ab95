// The French of a group's holiday rules (docs/api.md, exceptions and holiday rules): the holidays by name, in the
// order of the year (as src/kernel/holidays.ts names them; typed against the API's keys, so a new key does not
// compile without its name), and what each action does.
import type { HolidayAction, HolidayKey, HolidayRule } from '../types.ts';

/** Every holiday a rule may name; `alsace`: a public holiday only where a city follows Alsace-Moselle's calendar. */
const NAMES: Record<HolidayKey, { name: string; alsace?: true }> = {
  'jour-de-l-an': { name: 'Jour de l’an' },
  'vendredi-saint': { name: 'Vendredi saint', alsace: true },
  'lundi-de-paques': { name: 'Lundi de Pâques' },
  'fete-du-travail': { name: 'Fête du Travail' },
  'victoire-1945': { name: 'Victoire 1945' },
  ascension: { name: 'Ascension' },
  'lundi-de-pentecote': { name: 'Lundi de Pentecôte' },
  'fete-nationale': { name: 'Fête nationale' },
  assomption: { name: 'Assomption' },
  toussaint: { name: 'Toussaint' },
  armistice: { name: 'Armistice 1918' },
  noel: { name: 'Noël' },
  'saint-etienne': { name: 'Saint-Étienne', alsace: true },
};

export const ALL_HOLIDAYS = 'Tous les jours fériés';

/** The holidays in the order of the year, with their names. */
export const HOLIDAYS = (Object.keys(NAMES) as HolidayKey[]).map((key) => ({ key, ...NAMES[key] }));

export const holidayName = (key: HolidayRule['holiday']): string => (key === '*' ? ALL_HOLIDAYS : (NAMES[key as HolidayKey]?.name ?? key));

export const ACTIONS: Record<HolidayAction, string> = {
  KEEP: 'Collecte maintenue',
  CANCEL: 'Collecte annulée',
  NEXT_DAY: 'Reportée au lendemain',
  PREVIOUS_DAY: 'Avancée à la veille',
  SHIFT_WEEK: 'Décalage d’un jour jusqu’au samedi',
};

/** The order the actions are offered in. */
export const ACTION_ORDER: HolidayAction[] = ['KEEP', 'CANCEL', 'NEXT_DAY', 'PREVIOUS_DAY', 'SHIFT_WEEK'];
