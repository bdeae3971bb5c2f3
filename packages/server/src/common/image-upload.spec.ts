import { describe, expect, it } from 'vitest';
import {
  checkImage,
  detectImageKind,
  IMAGE_TYPE_REFUSED,
  imageKindOfName,
  isStoredImageName,
  MAX_IMAGE_BYTES,
  newImageName,
  type UploadedImageFile,
} from './image-upload';
import { InvalidInputError, PayloadTooLargeError, UnsupportedMediaError } from './errors';

const bytes = (...parts: Array<number[] | string | Buffer>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.isBuffer(p) ? p : Buffer.from(p))));

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR');
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF\0');
const GIF87 = bytes('GIF87a', [1, 0, 1, 0]);
const GIF89 = bytes('GIF89a', [1, 0, 1, 0]);
const WEBP = bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ');
const SVG = bytes('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = bytes('<!doctype html><html><script>alert(1)</script></html>');

const file = (buffer: Buffer, originalname = 'photo.png', mimetype = 'image/png') =>
  ({ buffer, size: buffer.length, originalname, mimetype, fieldname: 'image', encoding: '7bit' }) as UploadedImageFile;

describe('detectImageKind', () => {
  it.each([
    ['png', PNG],
    ['jpeg', JPEG],
    ['gif', GIF87],
    ['gif', GIF89],
    ['webp', WEBP],
  ])('recognises %s by its bytes', (kind, buffer) => {
    expect(detectImageKind(buffer)).toBe(kind);
  });

  it.each([
    ['svg', SVG],
    ['html', HTML],
    ['pdf', bytes('%PDF-1.7\n')],
    ['empty', Buffer.alloc(0)],
    ['truncated png', PNG.subarray(0, 5)],
    ['RIFF that is not WebP (wav)', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
    ['GIF without version', bytes('GIF8')],
    ['png signature not at the start', bytes(' ', PNG)],
  ])('refuses %s', (_name, buffer) => {
    expect(detectImageKind(buffer)).toBeUndefined();
  });
});

describe('checkImage', () => {
  it('returns null when no file was sent (or an empty file input)', () => {
    expect(checkImage(undefined)).toBeNull();
    expect(checkImage(file(Buffer.alloc(0), '', 'application/octet-stream'))).toBeNull();
  });

  it('takes the real type from the bytes, whatever the client said, and makes server-made names for it', () => {
    const checked = checkImage(file(JPEG, '../../etc/passwd.svg', 'image/svg+xml'));
    expect(checked?.kind).toBe('jpeg');
    const name = newImageName(checked!.kind);
    expect(name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(isStoredImageName(name)).toBe(true);
    expect(imageKindOfName(name)).toBe('jpeg');
    expect(newImageName('jpeg')).not.toBe(name);
    expect(checkImage(file(WEBP, 'x.png'))?.kind).toBe('webp');
    expect(isStoredImageName('../jwt-secret')).toBe(false);
  });

  it('refuses svg and other non-images with 415, even when they claim to be png', () => {
    expect(() => checkImage(file(SVG, 'logo.png', 'image/png'))).toThrow(UnsupportedMediaError);
    expect(() => checkImage(file(HTML, 'a.gif', 'image/gif'))).toThrow(IMAGE_TYPE_REFUSED);
  });

  it('refuses an empty file (400) and one above 5 MB (413)', () => {
    expect(() => checkImage(file(Buffer.alloc(0)))).toThrow(InvalidInputError);
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect(() => checkImage(file(big))).toThrow(PayloadTooLargeError);
  });
});
