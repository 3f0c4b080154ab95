// What the app keeps on the device (localStorage): nothing that is not needed again.

const PREFIX = 'collecte.';

export function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(PREFIX + key);
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
    // Private browsing or full storage: the app works, it just forgets.
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
export const chooseCity = (cityId: string) => write('city', cityId);
/** The commune the other screens are about: the chosen place's, or the last one picked. */
export const currentCityId = () => chosenPlace()?.cityId ?? read<string>('city');
