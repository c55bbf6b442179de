import type { ConditionType, RuleDevice } from '@shared/redirect-rules';
import type { ShortFieldName } from '@shared/short-fields';

/** Creating, editing and listing shorts: fields, create, edit, rules, transfer, own shorts (the QR dialog: qr.ts). */
export const shorts = {
  /** The short's fields by their name in the field table (src/shared/short-fields.ts). */
  fields: {
    url: 'URL',
    password: 'Passwort',
    code: 'Code',
    name: 'Name',
    expireAt: 'Ablaufdatum',
    maxUses: 'Max. Aufrufe',
    domain: 'Domain',
    expiredUrl: 'Ziel nach Ablauf',
    rules: 'Weiterleitungsregeln',
    team: 'Team',
    tags: 'Tags',
    preview: 'Vorschau für soziale Netzwerke',
    qrStyle: 'QR-Stil',
  } satisfies Record<ShortFieldName, string>,
  create: {
    title: 'Link kürzen',
    urlPlaceholder: 'https://example.com/ein/langer/link',
    password: 'Passwort (optional)',
    mainDomain: 'Diese Domain (Standard)',
    expiryPlaceholder: 'z. B. morgen um 15 Uhr, in 2 Tagen, 12.05.2023',
    understoodAs: 'Verstanden als: {date}',
    unlimited: 'Unbegrenzt',
    submit: 'Kürzen',
    success: 'Der Short wurde erfolgreich erstellt',
    errorOther: 'Link konnte nicht erstellt werden',
    /** The logged-in form's folded group: max uses, domain, after-expiry target, rules. */
    advanced: 'Erweitert',
    advancedSet: { one: '{n} Angabe gesetzt', other: '{n} Angaben gesetzt' },
  },
  /** Example texts of the short's inputs, by field (the edit form shows a needed field's value instead). */
  fieldPlaceholders: {
    url: 'https://example.com/ein/langer/link',
    code: 'Eigener Code (optional)',
    name: 'Name (optional)',
    expireAt: 'z. B. morgen um 15 Uhr, in 2 Tagen, {date}',
    maxUses: 'Unbegrenzt',
    expiredUrl: 'https://example.com/angebot-beendet',
    tags: 'z. B. Herbst, Kampagne',
  } satisfies Partial<Record<ShortFieldName, string>>,
  /** Help texts below some of the short's inputs, by field. */
  fieldHints: {
    code: '{codeMin} bis {codeMax} Zeichen aus A–Z, a–z, 0–9, _ und -; Groß- und Kleinschreibung zählt.',
    expiredUrl:
      'Wohin Besucher kommen, wenn der Short abgelaufen oder aufgebraucht ist. Leer: die Hinweisseite.',
    tags: 'Bis zu 10, durch Kommas getrennt; Groß- und Kleinschreibung zählt nicht.',
  } satisfies Partial<Record<ShortFieldName, string>>,
  edit: {
    button: 'Bearbeiten',
    buttonRow: '{code} bearbeiten',
    title: 'Short bearbeiten',
    password: 'Neues Passwort',
    passwordHint: 'Leer lassen, um das bisherige Passwort zu behalten.',
    passwordNone: 'Leer lassen, wenn der Short kein Passwort haben soll.',
    removePassword: 'Passwortschutz entfernen',
    clearExpiry: 'Ablaufdatum entfernen',
    clearMaxUses: 'Begrenzung entfernen',
    noExpiry: 'Läuft nie ab',
    expiryNotUnderstood: 'Das Datum wurde nicht verstanden.',
    save: 'Speichern',
    cancel: 'Abbrechen',
    close: 'Schließen',
    saved: 'Der Short wurde gespeichert',
    noChanges: 'Es gibt keine Änderungen zu speichern.',
    errorOther: 'Der Short konnte nicht gespeichert werden',
    /** Before saving a changed code: every shared link and printed QR code of the old one breaks. */
    codeChangedTitle: 'Code wirklich ändern?',
    codeChanged:
      'Du änderst den Code von {old} auf {code}. Alle Links und QR-Codes, die du schon geteilt oder gedruckt hast, funktionieren danach nicht mehr.',
    codeChangedConfirm: 'Ja, Code ändern',
    codeChangedBack: 'Zurück',
    /** The code input's message when the browser refuses its value (instead of 'Please match the requested format'). */
    codeRule: 'Erlaubt sind {codeMin} bis {codeMax} Zeichen aus A–Z, a–z, 0–9, _ und -.',
    /** Saving failed with errors shown at their fields. */
    fieldErrors: 'Bitte prüfe die markierten Felder.',
  },
  /** The redirect rules (the short's form: create and edit) and the expiry fallback. */
  rules: {
    intro:
      'Leite Besucher je nach Gerät, Betriebssystem, Sprache, Land oder Query-Parameter woandershin. Die erste passende Regel gilt, sonst die URL.',
    rule: 'Regel {n}',
    when: 'Wenn alle Bedingungen zutreffen:',
    type: 'Art von Bedingung {n}',
    value: 'Wert von Bedingung {n}',
    target: 'dann weiter zu',
    add: 'Regel hinzufügen',
    addCondition: 'Bedingung hinzufügen',
    removeCondition: 'Bedingung {n} entfernen',
    remove: 'Entfernen',
    removeLabel: 'Regel {n} entfernen',
    upLabel: 'Regel {n} nach oben',
    downLabel: 'Regel {n} nach unten',
    maxRules: 'Höchstens {max} Regeln.',
    maxConditions: 'Höchstens {max} Bedingungen je Regel.',
    choose: 'Bitte wählen',
    /** The rules in a few words (the owner's overview, the statistics' targets). */
    summary: {
      typed: '{type}: {value}',
      and: ' und ',
      afterExpiry: 'Nach Ablauf',
    },
    types: {
      device: 'Gerät',
      os: 'Betriebssystem',
      language: 'Sprache',
      country: 'Land',
      query: 'Query-Parameter',
    } satisfies Record<ConditionType, string>,
    devices: {
      desktop: 'Desktop',
      mobile: 'Smartphone',
      tablet: 'Tablet',
    } satisfies Record<RuleDevice, string>,
    /** Example values and what a refused value must look like, by condition type. */
    examples: {
      device: '',
      os: '',
      language: 'z. B. de oder en-GB',
      country: 'z. B. DE',
      query: 'name=wert',
    } satisfies Record<ConditionType, string>,
    invalid: {
      device: 'Bitte ein Gerät wählen.',
      os: 'Bitte ein Betriebssystem wählen.',
      language: 'Ein Sprachkürzel wie de oder en-GB.',
      country: 'Ein Ländercode aus zwei Buchstaben wie DE.',
      query: 'Ein Paar name=wert.',
    } satisfies Record<ConditionType, string>,
  },
  shorts: {
    title: 'Deine Shorts',
    columns: {
      id: 'ID',
      name: 'Name',
      code: 'Code',
      url: 'Url',
      maxUses: 'Max. Aufrufe',
      uses: 'Nutzungen',
      visits: 'Aufrufe',
      dangers: 'Bedrohlichkeit',
      createdAt: 'Erstellt am',
      expireAt: 'Ablaufdatum',
      domain: 'Domain',
      shortUrl: 'Short-Link',
    },
    /** The domain column of a short on this service's host. */
    mainHost: 'Standard',
    dangerous: 'Gefährlich',
    harmless: 'Ungefährlich',
    deleted: 'Short erfolgreich gelöscht',
    deleteFailed: 'Fehler beim Löschen der Short',
    bulkDeleted: 'Shorts erfolgreich gelöscht',
    bulkDeleteFailed: 'Fehler beim Löschen der Shorts',
    empty: 'Es sind noch keine Einträge vorhanden.',
    /** The filter 'Nur defekte Links' without a hit. */
    noBroken: 'Keine defekten Links',
    unknownError: 'Unbekannter Fehler',
    loadError: 'Fehler beim Laden deiner Shorts',
    loadErrorStatus: 'Status {status}: {message}',
    search: 'Suche',
    searchPlaceholder: 'Name, Code oder Url durchsuchen',
    /** The own list's filter of shorts whose link health is broken. */
    brokenOnly: 'Nur defekte Links',
    /** The own list's domain filter (shown when the user has domains). */
    domainFilter: 'Nach Domain filtern',
    allDomains: 'Alle Domains',
    columnFilter: 'Spalten',
    total: { one: '{count} Eintrag', other: '{count} Einträge' },
    selectAll: 'Alle Shorts dieser Seite auswählen',
    selectRow: 'Short {code} auswählen',
    actions: 'Aktionen',
    delete: 'Löschen',
    deleteRow: 'Short {code} löschen',
    deleteSelected: 'Ausgewählte löschen ({count})',
    confirmTitle: 'Löschen bestätigen',
    confirmDelete: 'Möchtest du den Short {code} wirklich löschen?',
    confirmBulk: 'Möchtest du die {count} ausgewählten Shorts wirklich löschen?',
    confirm: 'Endgültig löschen',
    cancel: 'Abbrechen',
    showFullUrl: 'Ganze Url anzeigen',
    showShortUrl: 'Url gekürzt anzeigen',
    unlimited: 'Unbegrenzt',
    never: 'Nie',
    /** Uses of a short with a limit ('3 / 10'); without one, the number alone. */
    usesOf: '{uses} / {max}',
    /** The link to the start page's form. */
    newShort: 'Neuer Short',
    /** The empty state of a user without any short (no search, no filter). */
    emptyTitle: 'Du hast noch keine Shorts',
    emptyText:
      'Kürze deinen ersten Link – danach findest du ihn hier mit Statistik, QR-Code und allem Weiteren.',
    emptyAction: 'Ersten Short erstellen',
    copy: 'Kopieren',
    copyRow: 'Link von {code} kopieren',
    /** The badges of a short (lib/short-badges.ts). */
    badges: {
      expired: 'Abgelaufen',
      usedUp: 'Aufgebraucht',
      broken: 'Defekt',
      password: 'Passwort',
      dangerous: 'Gefährlich',
    },
    /** The card list below the md breakpoint. */
    cards: 'Deine Shorts als Liste',
    /** The cards' sort order (the table sorts by its column headers). */
    sortBy: 'Sortieren nach',
    sortAsc: '{column}, aufsteigend',
    sortDesc: '{column}, absteigend',
  },
} as const;
