/**
 * Tags, the own list's tag filter, the bulk edits of the selected shorts and the statistics of a
 * tag (CONTRACT "Tags and bulk edits"). Not part of the catalogue every page loads
 * (i18n/de/index.ts): the views that use it are lazy chunks (i18n/tags-text.ts).
 */
export const tags = {
  tags: {
    input: {
      placeholder: 'Tag eingeben …',
      hint: 'Bis zu {max} Tags. Enter oder Komma fügt einen Tag hinzu, die Rücktaste entfernt den letzten.',
      chosen: 'Gewählte Tags',
      remove: 'Tag {tag} entfernen',
      suggestions: 'Vorschläge',
      used: { one: '{n} Short', other: '{n} Shorts' },
      invalid:
        '„{tag}“ ist kein gültiger Tag: 1 bis {max} Zeichen aus Buchstaben, Ziffern, Leerzeichen, - _ und .',
      tooMany: 'Höchstens {max} Tags.',
    },
    chips: {
      label: 'Tags von {code}',
      filterBy: 'Nur Shorts mit dem Tag {tag} zeigen',
    },
    filter: {
      label: 'Nach Tags filtern',
      active: 'Gefiltert nach Tags',
      clear: 'Alle Tag-Filter entfernen',
      statistics: 'Statistik des Tags {tag}',
      empty: {
        one: 'Kein Short trägt den Tag {tags}.',
        other: 'Kein Short trägt alle Tags {tags}.',
      },
    },
    bulk: {
      label: 'Ausgewählte Shorts bearbeiten',
      selected: { one: '{n} Short ausgewählt', other: '{n} Shorts ausgewählt' },
      affects: {
        one: 'Gilt für den ausgewählten Short.',
        other: 'Gilt für die {n} ausgewählten Shorts.',
      },
      addTags: 'Tags hinzufügen',
      removeTags: 'Tags entfernen',
      expireAt: 'Ablaufdatum setzen',
      maxUses: 'Max. Aufrufe setzen',
      team: 'In Team verschieben',
      clear: 'Auswahl aufheben',
      tags: 'Tags',
      expiryHint: 'Leer lassen: Die Shorts laufen nie ab.',
      maxUsesHint: 'Leer lassen: unbegrenzt viele Aufrufe.',
      target: 'Ziel',
      apply: 'Übernehmen',
      cancel: 'Abbrechen',
      changed: { one: '{n} Short geändert.', other: '{n} Shorts geändert.' },
      failed: 'Die Shorts konnten nicht geändert werden.',
      refused: {
        one: 'Nichts wurde geändert: {n} Short darfst du nicht ändern ({codes}).',
        other: 'Nichts wurde geändert: {n} Shorts darfst du nicht ändern ({codes}).',
      },
      tooManyTags: 'Nichts wurde geändert: Ein Short hätte danach mehr als {max} Tags.',
      tagInvalid: 'Nichts wurde geändert: Ein Tag ist ungültig.',
      confirmTitle: { one: '{n} Short löschen?', other: '{n} Shorts löschen?' },
      confirmText: {
        one: 'Der ausgewählte Short wird endgültig gelöscht, mit seinen Statistiken.',
        other: 'Die {n} ausgewählten Shorts werden endgültig gelöscht, mit ihren Statistiken.',
      },
    },
    stats: {
      title: 'Statistik des Tags {tag}',
      inTeam: 'Team {team}',
      intro: 'Die Aufrufe aller deiner Shorts mit diesem Tag, zusammengezählt.',
      introTeam: 'Die Aufrufe aller Shorts des Teams mit diesem Tag, zusammengezählt.',
      back: 'Zu den Shorts mit diesem Tag',
      top: 'Top-Shorts',
      topCaption: 'Die Shorts mit diesem Tag und den meisten Aufrufen im Zeitraum',
      code: 'Code',
      visits: 'Aufrufe',
      ofShort: 'Statistik von {code}',
      noShorts: 'Keine Aufrufe im Zeitraum.',
      off: 'Statistiken sind auf diesem Server ausgeschaltet.',
    },
  },
} as const;
