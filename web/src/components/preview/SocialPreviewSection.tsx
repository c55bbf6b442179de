import {
  PREVIEW_DESCRIPTION_MAX,
  PREVIEW_IMAGE_MAX,
  PREVIEW_TITLE_MAX,
  isHttpsImageUrl,
} from '@shared/social-preview';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { FoldingSection } from '../FoldingSection';
import { usePreviewT } from '../../i18n/preview-text';
import { t } from '../../i18n/text';
import type { PreviewDraft } from '../../lib/short-form';

export interface SocialPreviewSectionProps {
  /** The inputs' ids start with it (`create-preview`, `edit-preview`). */
  idPrefix: string;
  /** The section's heading (the field's label). */
  label: string;
  value: PreviewDraft;
  onChange: (value: PreviewDraft) => void;
  /** The target URL as typed: its host is shown on the cards. */
  url: string;
  /** The server's error of the field. */
  error?: string;
}

/** The host of a typed URL, without `www.` ('' when it is no URL yet). */
export function hostOf(url: string): string {
  try {
    return new URL(url.trim()).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * 'Vorschau für soziale Netzwerke': a collapsible section of the logged-in form (create and edit)
 * with the preview's title, description and image URL, and a live card as LinkedIn and as Slack
 * would show it (image, title, description, the target's host). A lazy chunk: the first visit of
 * the start page never loads it. Open from the start when the short has a preview.
 */
export default function SocialPreviewSection({
  idPrefix,
  label,
  value,
  onChange,
  url,
  error,
}: SocialPreviewSectionProps) {
  const { pm } = usePreviewT();
  const set = Object.values(value).some((v) => v.trim() !== '');
  const [open, setOpen] = useState(set);
  const bodyId = `${idPrefix}-section`;
  const change = (part: keyof PreviewDraft, text: string) => onChange({ ...value, [part]: text });
  const image = value.image.trim();
  const imageOk = image === '' || isHttpsImageUrl(image);
  const card = {
    title: value.title.trim(),
    description: value.description.trim(),
    image: image !== '' && imageOk ? image : '',
    host: hostOf(url),
  };
  const left = (text: string, max: number) => t(pm.left, { n: max - text.length });
  return (
    <FoldingSection
      id={bodyId}
      label={label}
      open={open}
      onToggle={setOpen}
      folded={set && <span className="small text-body-secondary">{pm.set}</span>}
      data-testid="preview-section"
    >
      <p className="small text-body-secondary">{pm.hint}</p>
      <Form.Group className="mb-3" controlId={`${idPrefix}-title`}>
        <Form.Label>{pm.title}</Form.Label>
        <Form.Control
          value={value.title}
          maxLength={PREVIEW_TITLE_MAX}
          isInvalid={Boolean(error)}
          aria-describedby={`${idPrefix}-title-left`}
          onChange={(e) => change('title', e.target.value)}
        />
        <Form.Text id={`${idPrefix}-title-left`}>{left(value.title, PREVIEW_TITLE_MAX)}</Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId={`${idPrefix}-description`}>
        <Form.Label>{pm.description}</Form.Label>
        <Form.Control
          as="textarea"
          rows={2}
          value={value.description}
          maxLength={PREVIEW_DESCRIPTION_MAX}
          isInvalid={Boolean(error)}
          aria-describedby={`${idPrefix}-description-left`}
          onChange={(e) => change('description', e.target.value)}
        />
        <Form.Text id={`${idPrefix}-description-left`}>
          {left(value.description, PREVIEW_DESCRIPTION_MAX)}
        </Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId={`${idPrefix}-image`}>
        <Form.Label>{pm.image}</Form.Label>
        <Form.Control
          type="url"
          value={value.image}
          maxLength={PREVIEW_IMAGE_MAX}
          placeholder={pm.imagePlaceholder}
          isInvalid={!imageOk || Boolean(error)}
          aria-describedby={`${idPrefix}-image-help`}
          onChange={(e) => change('image', e.target.value)}
        />
        <Form.Text id={`${idPrefix}-image-help`}>{pm.imageHint}</Form.Text>
      </Form.Group>
      {error && (
        <Form.Control.Feedback
          type="invalid"
          className="d-block mb-3"
          id={`${idPrefix}-error`}
          data-testid="error-preview"
        >
          {error}
        </Form.Control.Feedback>
      )}
      <div className="small fw-semibold mb-2">{pm.cards}</div>
      <div className="d-flex flex-wrap gap-3 mb-2">
        <LinkedInCard {...card} label={pm.linkedin} noTitle={pm.noTitle} alt={pm.imageAlt} />
        <SlackCard {...card} label={pm.slack} noTitle={pm.noTitle} alt={pm.imageAlt} />
      </div>
    </FoldingSection>
  );
}

interface CardProps {
  title: string;
  description: string;
  image: string;
  host: string;
  label: string;
  noTitle: string;
  alt: string;
}

/** The image of a card, loaded by the browser (never by the server), without a referrer. */
function CardImage({ src, alt, height }: { src: string; alt: string; height: number }) {
  if (!src) return null;
  return (
    <img
      src={src}
      alt={alt}
      referrerPolicy="no-referrer"
      loading="lazy"
      style={{ width: '100%', height, objectFit: 'cover', display: 'block' }}
    />
  );
}

/** LinkedIn's card: the image across the top, the title bold, the host below. */
function LinkedInCard({ title, image, host, label, noTitle, alt }: CardProps) {
  return (
    <figure className="m-0" style={{ width: 'min(100%, 18rem)' }} data-testid="card-linkedin">
      <figcaption className="small text-body-secondary mb-1">{label}</figcaption>
      <div className="border rounded overflow-hidden bg-body-tertiary">
        <CardImage src={image} alt={alt} height={150} />
        <div className="p-2">
          <div className="fw-semibold text-break" style={{ fontSize: '0.9rem' }}>
            {title || <span className="text-body-secondary">{noTitle}</span>}
          </div>
          {host && <div className="small text-body-secondary">{host}</div>}
        </div>
      </div>
    </figure>
  );
}

/** Slack's unfurl: a bar on the left, the host, the title as a link, the text, the image below. */
function SlackCard({ title, description, image, host, label, noTitle, alt }: CardProps) {
  return (
    <figure className="m-0" style={{ width: 'min(100%, 18rem)' }} data-testid="card-slack">
      <figcaption className="small text-body-secondary mb-1">{label}</figcaption>
      <div className="ps-2" style={{ borderLeft: '4px solid var(--bs-secondary-border-subtle)' }}>
        {host && <div className="small fw-semibold">{host}</div>}
        <div className="fw-semibold text-primary text-break">
          {title || <span className="text-body-secondary">{noTitle}</span>}
        </div>
        {description && <div className="small text-break mb-1">{description}</div>}
        <div className="rounded overflow-hidden" style={{ maxWidth: '14rem' }}>
          <CardImage src={image} alt={alt} height={110} />
        </div>
      </div>
    </figure>
  );
}
