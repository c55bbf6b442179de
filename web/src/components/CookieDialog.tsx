import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import { de } from '../i18n/de';
import { CATEGORIES, LINKED, toggleCategory, toggleService, type Consent } from '../lib/consent';
import { consentActions, cookies } from '../state/cookies';

function copyConsent(c: Readonly<Consent>): Consent {
  return JSON.parse(JSON.stringify(c)) as Consent;
}

/** The consent dialog: shown until the required cookies are accepted; categories and services. */
export function CookieDialog() {
  const c = useSnapshot(cookies);
  const [draft, setDraft] = useState<Consent>(() => copyConsent(c.consent));
  // Each opening starts from the stored consent.
  const [shown, setShown] = useState(false);
  if (c.showCookieDialog !== shown) {
    setShown(c.showCookieDialog);
    if (c.showCookieDialog) setDraft(copyConsent(c.consent));
  }
  return (
    <Modal
      show={c.showCookieDialog}
      onHide={consentActions.close}
      backdrop="static"
      keyboard={false}
      aria-labelledby="cookie-title"
      centered
    >
      <Modal.Header>
        <Modal.Title id="cookie-title">{de.cookies.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>{de.cookies.text}</p>
        <Form>
          {CATEGORIES.map((cat) => (
            <div key={cat} className="mb-2">
              <Form.Check
                type="switch"
                id={`consent-${cat}`}
                label={de.cookies.categories[cat]}
                checked={draft.categories[cat]}
                disabled={cat === 'required'}
                onChange={(e) => setDraft(toggleCategory(draft, cat, e.currentTarget.checked))}
              />
              {LINKED[cat].map((s) => (
                <Form.Check
                  key={s}
                  className="ms-4"
                  type="switch"
                  id={`consent-${s}`}
                  label={de.cookies.services[s]}
                  checked={draft.services[s]}
                  onChange={(e) => setDraft(toggleService(draft, s, e.currentTarget.checked))}
                />
              ))}
            </div>
          ))}
        </Form>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={consentActions.rejectAll}>
          {de.cookies.rejectAll}
        </Button>
        <Button variant="outline-primary" onClick={() => consentActions.save(draft)}>
          {de.cookies.saveSelected}
        </Button>
        <Button variant="primary" onClick={consentActions.acceptAll}>
          {de.cookies.acceptAll}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
