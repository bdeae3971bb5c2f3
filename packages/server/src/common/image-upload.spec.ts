import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { uploadsDirectory } from '../static-assets';
import { detectImageKind, IMAGE_TYPE_REFUSED, isStoredImageName, MAX_IMAGE_BYTES, removeImage, saveImage } from './image-upload';
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
  ({ buffer, size: buffer.length, originalname, mimetype, fieldname: 'image', encoding: '7bit' }) as Express.Multer.File;

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

describe('saveImage', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-upload-spec-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) });
  const dir = uploadsDirectory(config);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('returns null when no file was sent (or an empty file input)', async () => {
    await expect(saveImage(undefined, config)).resolves.toBeNull();
    await expect(saveImage(file(Buffer.alloc(0), '', 'application/octet-stream'), config)).resolves.toBeNull();
  });

  it('stores the bytes under a server-made name with the extension of the real type, whatever the client said', async () => {
    const name = await saveImage(file(JPEG, '../../etc/passwd.svg', 'image/svg+xml'), config);
    expect(name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(isStoredImageName(name!)).toBe(true);
    expect(readFileSync(join(dir, name!))).toEqual(JPEG);
    expect(readdirSync(dataDir)).toEqual(['uploads']);
    const second = await saveImage(file(WEBP, 'x.png'), config);
    expect(second).toMatch(/^[0-9a-f]{32}\.webp$/);
    expect(second).not.toBe(name);
  });

  it('refuses svg and other non-images with 415, even when they claim to be png', async () => {
    const before = readdirSync(dir).length;
    const svg = saveImage(file(SVG, 'logo.png', 'image/png'), config);
    await expect(svg).rejects.toBeInstanceOf(UnsupportedMediaError);
    await expect(saveImage(file(HTML, 'a.gif', 'image/gif'), config)).rejects.toThrow(IMAGE_TYPE_REFUSED);
    expect(readdirSync(dir).length).toBe(before);
  });

  it('refuses an empty file (400) and one above 5 MB (413)', async () => {
    await expect(saveImage(file(Buffer.alloc(0)), config)).rejects.toBeInstanceOf(InvalidInputError);
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    await expect(saveImage(file(big), config)).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it('removeImage deletes stored images and ignores names it did not make', async () => {
    const name = (await saveImage(file(GIF89), config))!;
    await removeImage('../jwt-secret', config);
    await removeImage(name, config);
    expect(existsSync(join(dir, name))).toBe(false);
  });
});
