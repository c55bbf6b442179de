/**
 * UTM parameters in the short's forms and the UTM templates (CONTRACT "Marketing links", bullet
 * "UTM"). Not part of the catalogue every page loads (i18n/de/index.ts): the UTM section and the
 * templates' panel are lazy chunks (i18n/utm-text.ts).
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
    panel: {
      title: 'UTM-Vorlagen',
      intro:
        'Vorlagen füllen die UTM-Parameter eines Shorts mit einem Klick. Du legst sie im Formular eines Shorts an.',
      empty: 'Noch keine UTM-Vorlagen.',
      name: 'Name',
      values: 'Werte',
      space: 'Bereich',
      personal: 'Persönlich',
      delete: 'Löschen',
      deleteLabel: 'Vorlage {name} löschen',
      confirm: 'Vorlage „{name}“ wirklich löschen?',
      deleted: 'Vorlage gelöscht.',
      cancel: 'Abbrechen',
      deleteFailed: 'Die Vorlage konnte nicht gelöscht werden.',
    },
  },
};
