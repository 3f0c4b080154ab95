// Addresses inside the app that several screens build.

/** The query parameter that keeps the points screen's materials filter in its address. */
export const WASTE_TYPE_PARAM = 'dechet';

/** The points screen showing only the points that take a waste type. */
export const pointsTaking = (wasteTypeId: string) => `/decheteries?${WASTE_TYPE_PARAM}=${encodeURIComponent(wasteTypeId)}`;
