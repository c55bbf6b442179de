import type { ErrorKey } from '@shared/error-keys';

/** Messages of failed calls, by the problem's errorKey. */
export const errors = {
  /**
   * The text of every `errorKey` the API answers (src/shared/error-keys.ts): a key without a text
   * here does not compile. `{placeholders}` are the shared limits (lib/errors.ts fills them). The
   * spec's texts are verbatim (SPEC.md §8). Views may fall back to their own generic text for the
   * keys that only name a status (lib/errors.ts, `errorText`).
   */
  errors: {
    // any request (by status)
    bad_request: 'Die Anfrage ist ungültig.',
    validation_failed: 'Deine Eingaben sind ungültig.',
    unauthorized: 'Dafür musst du angemeldet sein.',
    forbidden: 'Dafür fehlen dir die Rechte.',
    not_found: 'Das Gesuchte wurde nicht gefunden.',
    method_not_allowed: 'Diese Aktion ist hier nicht möglich.',
    conflict: 'Das steht im Widerspruch zu einem vorhandenen Eintrag.',
    request_timeout: 'Die Anfrage hat zu lange gedauert. Bitte versuche es noch einmal.',
    payload_too_large: 'Die Anfrage ist zu groß.',
    unsupported_media_type: 'Dieses Format wird nicht unterstützt.',
    too_many_requests: 'Zu viele Anfragen. Bitte versuche es später noch einmal.',
    request_header_fields_too_large: 'Die Kopfzeilen der Anfrage sind zu groß.',
    internal_error:
      'Auf dem Server ist ein Fehler aufgetreten. Bitte versuche es später noch einmal.',
    service_unavailable:
      'Der Dienst ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.',
    // the request itself
    json_invalid: 'Die Anfrage enthält kein gültiges JSON.',
    body_too_large: 'Die Anfrage ist zu groß.',
    content_type_unsupported: 'Die Anfrage muss als JSON gesendet werden.',
    nul_refused: 'Deine Eingabe enthält ein unzulässiges Steuerzeichen.',
    // accounts, sessions, API keys
    account_not_activated: 'Dein Account ist nicht aktiviert.',
    admin_required: 'Das dürfen nur Admins.',
    not_owner: 'Das darf nur der Besitzer des Shorts oder ein Admin.',
    api_key_invalid: 'Der API-Schlüssel ist ungültig.',
    api_key_in_query: 'Der API-Schlüssel darf nicht in der Adresse stehen.',
    api_key_missing: 'Du hast noch keinen API-Schlüssel.',
    cross_site_refused: 'Die Anfrage kam nicht von dieser Seite und wurde abgelehnt.',
    provider_not_enabled: 'Dieser Login Anbieter ist nicht eingerichtet.',
    login_needs_session: 'Die Anmeldung braucht ein Browserfenster mit Cookies.',
    self_change_refused: 'Das kannst du an deinem eigenen Account nicht ändern.',
    // shorts: their fields (create, edit, import rows)
    entity_not_exists: 'Der Short existiert nicht.',
    url_missing: 'Die URL fehlt',
    url_invalid: 'Die URL ist ungültig',
    url_blacklisted: 'Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken',
    url_self:
      'Die URL führt zu diesem Dienst selbst (seine Adresse oder eine seiner Domains). Das gäbe eine Schleife.',
    code_invalid: 'Der Code ist ungültig ({codeMin} bis {codeMax} Zeichen: A–Z, a–z, 0–9, _ und -)',
    code_reserved: 'Dieser Code ist reserviert. Bitte wähle einen anderen.',
    code_exists: 'Der Code ist bereits vergeben',
    name_invalid: 'Der Name ist ungültig',
    name_too_long: 'Der Name ist zu lang (höchstens {nameMax} Zeichen)',
    expire_invalid: 'Das Ablaufdatum ist ungültig',
    expire_past: 'Das Ablaufdatum muss in der Zukunft liegen',
    uses_invalid: 'Die maximalen Aufrufe sind ungültig',
    uses_min: 'Die maximalen Aufrufe müssen größer als 0 sein',
    password_invalid: 'Das Passwort ist ungültig (höchstens {passwordMax} Zeichen)',
    field_not_allowed: 'Das dürfen nur angemeldete Nutzer setzen.',
    row_invalid: 'Die Zeile ist ungültig.',
    rules_invalid: 'Die Weiterleitungsregeln sind ungültig.',
    rules_too_many: 'Höchstens 10 Regeln mit je 1 bis 5 Bedingungen.',
    rule_condition_invalid: 'Eine Bedingung einer Regel ist ungültig.',
    rule_url_invalid: 'Die URL einer Regel ist ungültig.',
    rule_url_blacklisted:
      'Die URL einer Regel ist auf der Blacklist. Du darfst auf sie nicht verlinken.',
    tag_invalid:
      'Ein Tag ist ungültig: 1 bis 32 Zeichen aus Buchstaben, Ziffern, Leerzeichen, -, _ und .',
    too_many_tags: 'Ein Short hat höchstens 10 Tags.',
    bulk_conflict: 'Shorts wurden inzwischen geändert oder gelöscht; nichts wurde geändert.',
    // shorts: reading and following
    password_required: 'Dieser Short ist durch ein Passwort geschützt.',
    password_wrong: 'Das Passwort ist falsch.',
    password_locked: 'Zu viele falsche Versuche. Bitte versuche es später noch einmal.',
    target_hidden: 'Das Ziel dieses Shorts sieht nur sein Besitzer.',
    // reports, limits, QR, admin
    report_exists: 'Du hast diesen Short bereits gemeldet.',
    rate_limited: 'Zu viele Anfragen. Bitte versuche es später noch einmal.',
    qr_busy: 'Gerade werden zu viele QR-Codes erzeugt. Bitte versuche es gleich noch einmal.',
    query_invalid:
      'Prüfe Klammern, Anführungszeichen und Operatoren; reguläre Ausdrücke werden nicht unterstützt.',
    entity_unknown: 'Diese Art von Einträgen gibt es nicht.',
    entity_not_editable: 'Diese Einträge lassen sich nicht ändern.',
    entity_not_deletable: 'Diese Einträge lassen sich nicht löschen.',
    entity_id_invalid: 'Ein neuer Eintrag braucht eine UUID als ID.',
    body_not_object: 'Die Anfrage muss ein JSON-Objekt sein.',
    field_unknown: 'Dieses Feld gibt es nicht.',
    field_read_only: 'Dieses Feld lässt sich nicht ändern.',
    field_required: 'Dieses Feld muss ausgefüllt sein.',
    field_invalid: 'Dieser Wert passt nicht zu dem Feld.',
    domain_invalid:
      'Das ist kein gültiger Domainname (z. B. go.example.com, ohne https:// und Pfad).',
    domain_main_host: 'Das ist die Domain dieses Dienstes selbst.',
    domain_taken: 'Diese Domain ist bereits eingetragen.',
    domain_in_use: 'Auf dieser Domain gibt es noch Shorts. Lösche oder verschiebe sie zuerst.',
    domain_forbidden: 'Diese Domain darfst du nicht verwenden.',
    domain_unknown: 'Diese Domain gibt es nicht.',
    redirect_invalid: 'Die Weiterleitung muss ein vollständiger http- oder https-Link sein.',
    dns_no_record: 'Der TXT-Eintrag wurde nicht gefunden.',
    dns_token_mismatch: 'Der TXT-Eintrag enthält nicht den erwarteten Wert.',
    dns_timeout:
      'Der DNS-Server hat nicht rechtzeitig geantwortet. Versuche es später noch einmal.',
    dns_failed: 'Die DNS-Abfrage ist fehlgeschlagen. Versuche es später noch einmal.',
    quota_exceeded: 'Du hast die erlaubte Höchstzahl erreicht. Lösche zuerst einen Eintrag.',
    scope_missing: 'Dieser API-Key darf das nicht.',
    team_forbidden: 'In diesem Team darfst du das nicht.',
    team_not_empty: 'Das Team hat noch Shorts oder Domains. Verschiebe oder lösche sie zuerst.',
    team_last_owner: 'Ein Team braucht mindestens einen Besitzer. Ernenne zuerst einen weiteren.',
    team_full: 'Das Team hat die Höchstzahl an Mitgliedern erreicht.',
    invite_invalid: 'Diese Einladung ist ungültig, abgelaufen oder wurde schon benutzt.',
    api_key_name_exists: 'Du hast schon einen API-Key mit diesem Namen.',
    api_key_scope_invalid: 'Diese Berechtigungen sind für diesen API-Key nicht möglich.',
    webhook_url_invalid:
      'Die Webhook-Adresse muss eine öffentliche http(s)-Adresse sein (keine internen oder lokalen Adressen).',
    webhook_unknown: 'Diesen Webhook gibt es nicht (mehr).',
    // the request, paging and the rest (issue 38: a key of its own for every refusal)
    request_malformed: 'Die Anfrage konnte nicht gelesen werden.',
    body_unreadable: 'Der Inhalt der Anfrage konnte nicht gelesen werden.',
    route_unknown: 'Diese Adresse gibt es in der API nicht.',
    id_invalid: 'Die ID ist keine gültige UUID.',
    path_invalid: 'Die Adresse enthält ungültige Zeichen.',
    username_invalid: 'Der Nutzername ist ungültig (1 bis 64 Zeichen: A–Z, a–z, 0–9, _, . und -).',
    paging_invalid: 'Die Seitenangabe ist ungültig.',
    sort_invalid: 'Die Sortierung ist ungültig (Feld,asc oder Feld,desc).',
    sort_field_unknown: 'Nach diesem Feld kann nicht sortiert werden.',
    figures_disabled: 'Die Live-Zahlen sind nicht eingeschaltet.',
    blacklist_exists: 'Dieser Eintrag steht bereits auf der Blacklist.',
    blacklist_too_long: 'Ein Blacklist-Eintrag hat höchstens 512 Zeichen.',
    blacklist_host_invalid: 'Der Host des Blacklist-Eintrags ist ungültig.',
    blacklist_empty: 'Das Muster des Blacklist-Eintrags darf nicht leer sein.',
    blacklist_regex_invalid: 'Das Muster ist kein gültiger regulärer Ausdruck.',
    log_level_invalid: 'Diese Protokollstufe gibt es nicht.',
    logger_name_invalid: 'Der Name des Loggers ist ungültig.',
    start_date_invalid: 'Das Startdatum ist kein gültiges Datum.',
    qr_contrast: 'Kontrast unter 3:1.',
  } satisfies Record<ErrorKey, string>,
} as const;
