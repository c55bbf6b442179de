import { useSnapshot } from 'valtio';
import { avatarSrc } from '../lib/avatar';
import { cookies } from '../state/cookies';

/** The user's picture; a default icon when there is none or gravatar is not consented. */
export function Avatar({ url, size = 24 }: { url: string | null | undefined; size?: number }) {
  const c = useSnapshot(cookies);
  const src = avatarSrc(url, c.consent.services.gravatar);
  if (!src) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 16 16"
        aria-hidden="true"
        data-testid="avatar-default"
        fill="currentColor"
      >
        <path d="M11 6a3 3 0 1 1-6 0 3 3 0 0 1 6 0" />
        <path
          fillRule="evenodd"
          d="M0 8a8 8 0 1 1 16 0A8 8 0 0 1 0 8m8-7a7 7 0 0 0-5.468 11.37C3.242 11.226 4.805 10 8 10s4.757 1.225 5.468 2.37A7 7 0 0 0 8 1"
        />
      </svg>
    );
  }
  return (
    <img
      src={src}
      width={size}
      height={size}
      alt=""
      className="rounded-circle"
      referrerPolicy="no-referrer"
    />
  );
}
