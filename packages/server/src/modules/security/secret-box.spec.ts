import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'user-1')).not.toBe(sealed);
  });

  it('refuses another context, another key and a tampered value', () => {
    const sealed = box.seal('secret', 'user-1');
    expect(() => box.open(sealed, 'user-2')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'user-1')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other!').toString('base64url');
    expect(() => box.open(parts.join('.'), 'user-1')).toThrow();
  });

  it('seals bytes so that only the same key and context open them', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const sealed = box.sealBytes(bytes, 'document-1');
    expect(sealed.includes(bytes)).toBe(false);
    expect(box.openBytes(sealed, 'document-1').equals(bytes)).toBe(true);
    expect(() => box.openBytes(sealed, 'document-2')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).openBytes(sealed, 'document-1')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => box.openBytes(tampered, 'document-1')).toThrow();
  });
});
