// The device's position, asked only when the citizen taps a button (« Me localiser »), never before.

/** Geolocation exists and may work here (browsers refuse it outside secure contexts). */
export function canLocate(): boolean {
  return typeof navigator !== 'undefined' && 'geolocation' in navigator && globalThis.isSecureContext !== false;
}

export function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) =>
    navigator.geolocation.getCurrentPosition(resolve, reject, { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 }),
  );
}

/** The browser refused to tell the position (the citizen said no, or the site may not ask). */
export function wasDenied(err: unknown): boolean {
  return (err as GeolocationPositionError | null)?.code === 1;
}
