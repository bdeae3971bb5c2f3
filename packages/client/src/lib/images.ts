/** Spec §3: a coin image is a full http URL or a file name under the backend's /images/ path. */
export function coinImageUrl(image: string | null | undefined): string {
  if (!image) return '';
  if (/^https?:\/\//i.test(image) || image.startsWith('/') || image.startsWith('data:')) return image;
  return `/images/${image}`;
}
