import { type CallHandler, type ExecutionContext, HttpException, Injectable, mixin, type NestInterceptor, type Type } from '@nestjs/common';
import { FileInterceptor, type UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';
import { randomBytes } from 'node:crypto';
import type { Observable } from 'rxjs';
import { InvalidInputError, PayloadTooLargeError, UnsupportedMediaError } from './errors';

/** An uploaded file as the upload interceptor hands it to `@UploadedFile()` (multer's shape, in memory). */
export type UploadedImageFile = UploadedMultipartFile;

/** The largest accepted image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TOO_LARGE = 'The image is too large. The maximum size is 5 MB.';
export const IMAGE_TYPE_REFUSED = 'Only PNG, JPEG, WebP or GIF images are accepted.';
export const IMAGE_EMPTY = 'The image file is empty.';

export type ImageKind = 'png' | 'jpeg' | 'webp' | 'gif';
const EXTENSIONS: Record<ImageKind, string> = { png: '.png', jpeg: '.jpg', webp: '.webp', gif: '.gif' };

/**
 * What the bytes say the file is (magic numbers), or undefined for anything else — SVG, HTML, PDF, text.
 * The client's file name, extension and declared mimetype are never consulted.
 */
export function detectImageKind(bytes: Uint8Array): ImageKind | undefined {
  const starts = (signature: number[], offset = 0) => bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
  const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // JPEG: SOI marker followed by another marker (FF D8 FF).
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts(ascii('GIF87a')) || starts(ascii('GIF89a'))) return 'gif';
  if (starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return 'webp';
  return undefined;
}

/** Server-made names only: 32 hex characters and one of our extensions. Anything else is never looked up or imported. */
const STORED_NAME = /^[0-9a-f]{32}\.(png|jpg|webp|gif)$/;

export function isStoredImageName(name: string): boolean {
  return STORED_NAME.test(name);
}

/** An uploaded image whose bytes were checked, ready to be stored (see StoredImagesService). */
export interface CheckedImage {
  bytes: Buffer;
  kind: ImageKind;
}

export const IMAGE_CONTENT_TYPES: Record<ImageKind, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

/** A new random server-made name for an image of this kind (served at `/images/<name>`). */
export function newImageName(kind: ImageKind): string {
  return `${randomBytes(16).toString('hex')}${EXTENSIONS[kind]}`;
}

/** The kind a stored name's extension stands for. */
export function imageKindOfName(name: string): ImageKind | undefined {
  const extension = name.slice(name.lastIndexOf('.'));
  return (Object.keys(EXTENSIONS) as ImageKind[]).find((kind) => EXTENSIONS[kind] === extension);
}

/**
 * Checks the uploaded bytes: null when no file was sent; wrong bytes → 415, empty file → 400, too large → 413,
 * each with a message for people. Nothing is stored here: the service stores the image in the same transaction as
 * the record that points to it.
 */
export function checkImage(file: UploadedImageFile | undefined): CheckedImage | null {
  // A form's empty file input arrives as a part with no file name and no bytes: that is "no image".
  if (!file || (file.size === 0 && !file.originalname)) return null;
  const bytes = file.buffer;
  if (!bytes || bytes.length === 0) throw new InvalidInputError(IMAGE_EMPTY);
  if (bytes.length > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(IMAGE_TOO_LARGE);
  const kind = detectImageKind(bytes);
  if (!kind) throw new UnsupportedMediaError(IMAGE_TYPE_REFUSED);
  return { bytes, kind };
}

/** The public URL path of a stored image. */
export function imagePath(name: string | null | undefined): string | null {
  return name ? `/images/${name}` : null;
}

/**
 * The upload interceptor's errors (Nest's Fastify multipart parser reports them with multer's codes' messages) → typed
 * errors with messages for people (never a 500).
 */
export function uploadError(error: unknown): Error {
  if (!(error instanceof HttpException)) return error instanceof Error ? error : new InvalidInputError('The upload could not be read.');
  const message = error.message;
  if (error.getStatus() === 413 || message.startsWith('File too large')) return new PayloadTooLargeError(IMAGE_TOO_LARGE);
  if (message.startsWith('Too many files') || message.startsWith('Unexpected file field'))
    return new InvalidInputError(`Attach at most one image, in the "image" field.`);
  if (message.startsWith('Field value too long')) return new PayloadTooLargeError('A form field is too long.');
  if (/^(Field name too long|Too many fields|Too many parts|Field name (nesting too deep|array index too large|missing)|Invalid field name)/.test(message)) {
    return new InvalidInputError('The form has too many or too long fields.');
  }
  if (message.startsWith('Multipart:')) return new InvalidInputError('The upload could not be read. Please send the form as multipart/form-data.');
  return new InvalidInputError('The upload could not be read.');
}

/** The limits of one image upload form: one file of at most 5 MB, a few short text fields. */
const IMAGE_FORM_LIMITS = { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 30, fieldSize: 64 * 1024, parts: 31, fieldNameSize: 100 };

/**
 * `@UseInterceptors(ImageUploadInterceptor())`: parses a multipart body with at most one file in the `image` field,
 * kept in memory (≤ 5 MB), and the text fields into the request body (Nest's Fastify `FileInterceptor`, on
 * `@fastify/multipart`). A JSON or urlencoded body passes through untouched. The file arrives as
 * `@UploadedFile() image?: UploadedImageFile`; hand it to `checkImage` in the service.
 * For OpenAPI add `@ApiConsumes('multipart/form-data')` and an `@ApiBody` schema with `image: { type: 'string', format: 'binary' }`.
 */
export function ImageUploadInterceptor(field = 'image'): Type<NestInterceptor> {
  const Parse = FileInterceptor(field, { limits: IMAGE_FORM_LIMITS });

  @Injectable()
  class MixinImageUploadInterceptor extends Parse {
    override async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      try {
        // Reading the form ends before the handler runs: the handler's own errors pass through untouched.
        return await super.intercept(context, next);
      } catch (error) {
        throw uploadError(error);
      }
    }
  }
  return mixin(MixinImageUploadInterceptor);
}
