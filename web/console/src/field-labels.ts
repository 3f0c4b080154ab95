// What agents read of the collection data's fields, by the admin API's field names: the editor forms' labels and the
// conflict tables use them, and so does a record's history (screens/history.tsx), which also says their values.

export const RECYCLING_POINT_KINDS = [
  { value: '', label: 'Non précisé' },
  { value: 'CENTRE', label: 'Déchèterie' },
  { value: 'CONTAINER', label: 'Conteneur (point d’apport)' },
  { value: 'SHOP', label: 'Magasin (reprise)' },
];

export const EXCEPTION_KINDS = { CANCEL: 'Collecte annulée', MOVE: 'Collecte déplacée', ADD: 'Collecte ajoutée' } as const;

export const FIELD_LABELS = {
  wasteType: {
    name: 'Nom',
    color: 'Couleur',
    colorLight: 'Couleur claire',
    icon: 'Icône',
    description: 'Description',
    instructions: 'Consignes de tri',
    imageUrl: 'Image',
  },
  recyclingPoint: {
    name: 'Nom',
    kind: 'Genre',
    address: 'Adresse',
    latitude: 'Latitude',
    longitude: 'Longitude',
    openingHours: 'Horaires (texte pour les habitants)',
    openingHoursSpec: 'Horaires (format OpenStreetMap)',
    materials: 'Déchets acceptés',
  },
  collectionPlace: { name: 'Nom du secteur', area: 'Zone (GeoJSON)' },
  collectionDay: {
    name: 'Jour',
    wasteTypeId: 'Type de déchets',
    biweekly: 'Une semaine sur deux',
    startDate: 'À partir du',
    description: 'Explication pour les habitants',
  },
  exception: {
    kind: 'Exception',
    wasteTypeId: 'Type de déchets',
    dateFrom: 'Jour',
    dateTo: 'Au',
    movedTo: 'Nouveau jour',
    name: 'Titre',
    description: 'Explication pour les habitants',
  },
} as const satisfies Record<string, Record<string, string>>;

export type LabelledEntity = keyof typeof FIELD_LABELS;

export const isLabelledEntity = (entity: string): entity is LabelledEntity => Object.hasOwn(FIELD_LABELS, entity);
