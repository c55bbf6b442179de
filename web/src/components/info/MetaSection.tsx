import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { useShortMeta } from '../../api/queries/shorts';
import { de } from '../../i18n/de';

/** The target's preview (title, description; the image only on request, it comes from the target). */
export function MetaSection({ code, domain }: { code: string; domain?: string | null }) {
  const { data: meta, isError: failed } = useShortMeta(code, domain);
  const [showImage, setShowImage] = useState(false);
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h5">{de.info.metaTitle}</h2>
        {failed || (meta && !meta.title && !meta.description && !meta.image) ? (
          <p className="mb-0">{de.info.metaUnavailable}</p>
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
                  <p className="small text-body-secondary mb-1">{de.info.metaImageHint}</p>
                  <Button size="sm" variant="outline-secondary" onClick={() => setShowImage(true)}>
                    {de.info.metaImage}
                  </Button>
                </div>
              ))}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
