/**
 * UTM parameters in the short's forms and the UTM templates (CONTRACT "Marketing links", bullet
 * "UTM"). Not part of the catalogue every page loads (i18n/de/index.ts): the UTM section is a
 * lazy chunk (i18n/utm-text.ts).
 */
export const utm = {
  utm: {
    section: 'UTM-Parameter',
    set: { one: '{n} gesetzt', other: '{n} gesetzt' },
    intro:
      'Die Felder stehen in der Ziel-URL: Änderungen hier ändern die URL, Änderungen an der URL diese Felder.',
    needUrl: 'Gib zuerst eine vollständige Ziel-URL mit http:// oder https:// ein.',
    template: 'Vorlage anwenden',
    chooseTemplate: 'Vorlage wählen …',
    noTemplates: 'Noch keine Vorlagen in diesem Bereich.',
    applied: 'Vorlage „{name}“ angewendet.',
    saveName: 'Name der Vorlage',
    save: 'Als Vorlage speichern',
    saved: 'Vorlage „{name}“ gespeichert.',
    saveFailed: 'Die Vorlage konnte nicht gespeichert werden.',
    loadFailed: 'Die Vorlagen konnten nicht geladen werden.',
    manage: {
      toggle: 'Vorlagen verwalten',
      title: 'UTM-Vorlagen dieses Bereichs',
      delete: 'Löschen',
      deleteLabel: 'Vorlage {name} löschen',
      confirm: 'Vorlage „{name}“ wirklich löschen?',
      cancel: 'Abbrechen',
      deleted: 'Vorlage gelöscht.',
      gone: 'Diese Vorlage gibt es nicht (mehr).',
      deleteFailed: 'Die Vorlage konnte nicht gelöscht werden.',
    },
  },
};
