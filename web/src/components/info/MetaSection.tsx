import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { useShortMeta } from '../../api/queries/shorts';
import { useT } from '../../i18n/context';

/** The target's preview (title, description; the image only on request, it comes from the target). */
export function MetaSection({ code, domain }: { code: string; domain?: string | null }) {
  const { msg } = useT();
  const { data: meta, isError: failed } = useShortMeta(code, domain);
  const [showImage, setShowImage] = useState(false);
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h5">{msg.info.metaTitle}</h2>
        {failed || (meta && !meta.title && !meta.description && !meta.image) ? (
          <p className="mb-0">{msg.info.metaUnavailable}</p>
        ) : !meta ? (
          <Spinner animation="border" size="sm" role="status" />
        ) : (
          <>
            {meta.title && <p className="fw-semibold mb-1">{meta.title}</p>}
            {meta.description && <p>{meta.description}</p>}
            {meta.image &&
              (showImage ? (
                <img
                  src={meta.image}
                  alt={meta.title ?? ''}
                  className="img-fluid rounded"
                  referrerPolicy="no-referrer"
                />
              ) : (
                <div>
                  <p className="small text-body-secondary mb-1">{msg.info.metaImageHint}</p>
                  <Button size="sm" variant="outline-secondary" onClick={() => setShowImage(true)}>
                    {msg.info.metaImage}
                  </Button>
                </div>
              ))}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
