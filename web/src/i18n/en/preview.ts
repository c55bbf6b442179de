import type { Catalogue } from '../text';
import type { preview as de } from '../de/preview';

/** The social preview's section of the short's form: the same keys and placeholders as the German area. */
export const preview: Catalogue<typeof de> = {
  preview: {
    hint: 'This is how the link appears when shared in Slack, LinkedIn, X, Facebook, Discord, WhatsApp or Telegram. Empty fields take what the target page itself says (where known).',
    title: 'Title',
    description: 'Description',
    image: 'Image URL',
    imageHint: 'A complete https URL (e.g. 1200 × 630 pixels). The server never loads the image.',
    imagePlaceholder: 'https://example.com/image.png',
    left: '{n} characters left',
    set: 'set',
    cards: 'Live preview',
    linkedin: 'As in LinkedIn',
    slack: 'As in Slack',
    noTitle: 'Title of the target page',
    imageAlt: 'Preview image',
  },
};
