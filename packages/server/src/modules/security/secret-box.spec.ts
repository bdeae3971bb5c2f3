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
});
