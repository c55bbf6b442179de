/** Gravatar images need the gravatar consent; without it a default icon is shown. */
export function isGravatar(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'gravatar.com' || host.endsWith('.gravatar.com');
  } catch {
    return false;
  }
}

/** The image to load, or null for the default icon. */
export function avatarSrc(
  imageUrl: string | null | undefined,
  gravatarConsent: boolean,
): string | null {
  if (!imageUrl) return null;
  if (isGravatar(imageUrl) && !gravatarConsent) return null;
  return imageUrl;
}
