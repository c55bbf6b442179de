import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import {
  LINKED,
  offeredCategories,
  toggleCategory,
  toggleService,
  type Consent,
} from '../lib/consent';
import { consentActions, cookies } from '../state/cookies';
import { useT } from '../i18n/context';

function copyConsent(c: Readonly<Consent>): Consent {
  return JSON.parse(JSON.stringify(c)) as Consent;
}

/**
 * The consent dialog: the categories and services this instance uses (cookies.offered). It opens
 * by itself, blocking, only while no choice is stored and something optional is used; with nothing
 * optional it says so and closes like any dialog.
 */
export function CookieDialog() {
  const { msg } = useT();
  const c = useSnapshot(cookies);
  const [draft, setDraft] = useState<Consent>(() => copyConsent(c.consent));
  // Each opening starts from the stored consent.
  const [shown, setShown] = useState(false);
  if (c.showCookieDialog !== shown) {
    setShown(c.showCookieDialog);
    if (c.showCookieDialog) setDraft(copyConsent(c.consent));
  }
  const offered = c.offered;
  const optional = offered.length > 0;
  return (
    <Modal
      show={c.showCookieDialog}
      onHide={consentActions.close}
      backdrop={optional ? 'static' : true}
      keyboard={!optional}
      aria-labelledby="cookie-title"
      centered
    >
      <Modal.Header>
        <Modal.Title id="cookie-title">{msg.cookies.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>{optional ? msg.cookies.text : msg.consent.onlyRequired}</p>
        <Form>
          {offeredCategories(offered).map((cat) => (
            <div key={cat} className="mb-2">
              <Form.Check
                type="switch"
                id={`consent-${cat}`}
                label={msg.cookies.categories[cat]}
                checked={draft.categories[cat]}
                disabled={cat === 'required'}
                onChange={(e) =>
                  setDraft(toggleCategory(draft, cat, e.currentTarget.checked, offered))
                }
              />
              {LINKED[cat]
                .filter((s) => offered.includes(s))
                .map((s) => (
                  <Form.Check
                    key={s}
                    className="ms-4"
                    type="switch"
                    id={`consent-${s}`}
                    label={msg.cookies.services[s]}
                    checked={draft.services[s]}
                    onChange={(e) => setDraft(toggleService(draft, s, e.currentTarget.checked))}
                  />
                ))}
            </div>
          ))}
        </Form>
      </Modal.Body>
      <Modal.Footer>
        {optional ? (
          <>
            <Button variant="outline-secondary" onClick={consentActions.rejectAll}>
              {msg.cookies.rejectAll}
            </Button>
            <Button variant="outline-primary" onClick={() => consentActions.save(draft)}>
              {msg.cookies.saveSelected}
            </Button>
            <Button variant="primary" onClick={consentActions.acceptAll}>
              {msg.cookies.acceptAll}
            </Button>
          </>
        ) : (
          <Button variant="primary" onClick={consentActions.close}>
            {msg.consent.close}
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
