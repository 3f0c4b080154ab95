// What the app keeps on the device (localStorage): nothing that is not needed again.

const PREFIX = 'collecte.';

/**
 * Where a storage refuses (private browsing, a frame whose storage the browser blocks), what the page writes is kept in
 * memory for as long as it is open: the device id above all, which would otherwise be new at each read.
 */
const memory = new Map<string, string>();

export function read<T>(key: string): T | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(PREFIX + key);
  } catch {
    raw = memory.get(PREFIX + key) ?? null;
  }
  try {
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

export function write(key: string, value: unknown): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage refused or full: the app works, and forgets when the page closes.
    if (value === null) memory.delete(PREFIX + key);
    else memory.set(PREFIX + key, JSON.stringify(value));
  }
}

/** The device id the seed asks for: generated once, kept, sent with quiz scores and chat messages. */
export function deviceId(): string {
  let id = read<string>('deviceId');
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    write('deviceId', id);
  }
  return id;
}

export interface ChosenPlace {
  cityId: string;
  cityName: string;
  placeId: string;
  placeName: string;
}

export const chosenPlace = () => read<ChosenPlace>('place');

/** A place the citizen keeps under a name of their own (home, parents'…), to switch between them in one tap. */
export interface SavedPlace extends ChosenPlace {
  label: string;
}

/** At most this many saved places: a short list stays a one-tap choice. */
const MAX_SAVED = 6;

export const savedPlaces = () => read<SavedPlace[]>('places') ?? [];

export function savePlace(place: SavedPlace): SavedPlace[] {
  const list = [...savedPlaces().filter((p) => p.placeId !== place.placeId), place].slice(-MAX_SAVED);
  write('places', list);
  return list;
}

export function forgetPlace(placeId: string): SavedPlace[] {
  const list = savedPlaces().filter((p) => p.placeId !== placeId);
  write('places', list);
  return list;
}
export const chooseCity = (cityId: string) => write('city', cityId);
/** A widget's commune (its page's `city`), which its screens are about whatever the device chose in the app. */
let pinnedCity: string | null = null;
export const pinCity = (cityId: string) => {
  pinnedCity = cityId;
};

/** The commune the other screens are about: a widget's, else the chosen place's, or the last one picked. */
export const currentCityId = () => pinnedCity ?? chosenPlace()?.cityId ?? read<string>('city');
