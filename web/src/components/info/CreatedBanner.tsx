import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import type { Short } from '../../api/client';
import { de } from '../../i18n/de';
import { expiresWithin24h } from '../../lib/expiry';
import { copyLink, shareLink } from './share';

/** After creating (?show_created=true): the link to copy or share, and the expiry hints. */
export function CreatedBanner({
  short,
  anonymous,
  onQr,
}: {
  short: Short;
  anonymous: boolean;
  /** Opens the QR code dialog. */
  onQr?: () => void;
}) {
  // The server's link: `{BASE_URL}/s/{code}`, or `{scheme}://{domain}/{code}` on an own domain.
  const link = short.shortUrl;
  return (
    <Alert variant="success" data-testid="created-banner">
      <Alert.Heading as="h2" className="h5">
        {de.info.created}
      </Alert.Heading>
      <Form.Label htmlFor="share-link">{de.info.shareLink}</Form.Label>
      <InputGroup className="mb-2">
        <Form.Control id="share-link" readOnly value={link} />
        <Button variant="success" onClick={() => void copyLink(link)}>
          {de.info.copy}
        </Button>
        <Button variant="success" onClick={() => void shareLink(link, short.name ?? short.code)}>
          {de.info.share}
        </Button>
        {onQr && (
          <Button variant="success" onClick={onQr}>
            {de.qr.button}
          </Button>
        )}
      </InputGroup>
      {expiresWithin24h(short.expireAt) && <p className="mb-1">{de.info.expiresSoon}</p>}
      {anonymous && <p className="mb-0">{de.info.loginForLonger}</p>}
    </Alert>
  );
}
