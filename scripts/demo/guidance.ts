import type { Territory } from './territory.ts';

/** The five guidance texts of a city (seed: outOfTheBins … holidays), in French, per territory. */
export interface Guidance {
  outOfTheBins: string;
  presentationOfBins: string;
  returnOfBins: string;
  respectOfCalendar: string;
  holidays: string;
}

export function guidance(territory: Territory, cityName: string): Guidance {
  const urban = territory.code === 'BM';
  return {
    outOfTheBins: urban
      ? 'Sortez vos bacs la veille au soir du jour de collecte, après 19 h, ou le jour même avant 5 h 30. ' +
        'Ne les laissez pas sur le trottoir en dehors des jours de collecte.'
      : 'Sortez vos bacs la veille au soir du jour de collecte : les tournées commencent à 5 h 30 en campagne. ' +
        'Dans les hameaux, déposez-les au point de regroupement le plus proche.',
    presentationOfBins:
      'Présentez le bac couvercle fermé, poignée tournée vers la rue, en bordure de voie et sans gêner les piétons. ' +
      'Les sacs posés à côté du bac ne sont pas collectés. Les emballages vont en vrac dans le bac jaune, jamais dans un sac.',
    returnOfBins:
      'Rentrez votre bac le jour même de la collecte, au plus tard le soir. ' +
      `À ${cityName}, un bac laissé en permanence sur la voie publique peut être retiré.`,
    respectOfCalendar:
      'Respectez les jours de collecte de votre secteur : un bac sorti le mauvais jour ne sera pas vidé. ' +
      'Le bac jaune est collecté une semaine sur deux, les déchets verts de mars à novembre seulement.',
    holidays:
      'Quand un jour de collecte tombe un jour férié, la collecte est reportée au lendemain, samedi compris. ' +
      'Les déchèteries sont fermées les jours fériés. Consultez les exceptions de votre secteur avant chaque fête.',
  };
}
