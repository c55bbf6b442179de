import type { ReactNode } from 'react';

/** A 16 px line icon in the text colour; decorative (the button names the action). */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="action-icon"
      width="16"
      height="16"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const CopyIcon = () => (
  <Icon>
    <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
    <path d="M10.5 5.5V4A1.5 1.5 0 0 0 9 2.5H4A1.5 1.5 0 0 0 2.5 4v5A1.5 1.5 0 0 0 4 10.5h1.5" />
  </Icon>
);

export const QrIcon = () => (
  <Icon>
    <rect x="2.5" y="2.5" width="4" height="4" />
    <rect x="9.5" y="2.5" width="4" height="4" />
    <rect x="2.5" y="9.5" width="4" height="4" />
    <path d="M9.5 9.5h1.5v1.5M13.5 9.5v1M9.5 13.5h1M12.5 12.5h1v1" />
  </Icon>
);

export const EditIcon = () => (
  <Icon>
    <path d="M10.5 2.5l3 3-8 8h-3v-3z" />
    <path d="M9 4l3 3" />
  </Icon>
);

export const DeleteIcon = () => (
  <Icon>
    <path d="M2.5 4.5h11M6.5 4.5v-2h3v2M4 4.5l.75 9h6.5l.75-9M6.75 7v4M9.25 7v4" />
  </Icon>
);

/** An arrow into a folder: move to another space. */
export const MoveIcon = () => (
  <Icon>
    <path d="M1.5 4.5v8h13v-7h-6l-1.5-1.5h-5.5z" />
    <path d="M6 9h4.5M9 7.5 10.5 9 9 10.5" />
  </Icon>
);

/** Three bars: statistics. */
export const ChartIcon = () => (
  <Icon>
    <path d="M2.5 13.5h11M4.5 11V8M8 11V4M11.5 11V6.5" />
  </Icon>
);
