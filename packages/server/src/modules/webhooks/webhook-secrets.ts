import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { SecretBox } from '../security/secret-box';

/** How long the previous secret keeps signing after a rotation (receivers switch over meanwhile). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;

/**
 * Signing secrets in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes), sealed at rest with the
 * ENCRYPTION_KEY (they must be read back to sign; the endpoint's id is the sealing context).
 */
@Injectable()
export class WebhookSecrets {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.encryptionKey);
  }

  /** A new secret and its sealed form for the endpoint `endpointId`. */
  create(endpointId: string): { secret: string; sealed: string } {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    return { secret, sealed: this.box.seal(secret, `webhook:${endpointId}`) };
  }

  /** The secrets a delivery is signed with: the current one, and the previous one during its grace period. */
  signingSecrets(endpoint: { endpointId: string; secretSealed: string; previousSecretSealed: string | null; previousSecretUntil: Date | null }): string[] {
    const context = `webhook:${endpoint.endpointId}`;
    const secrets = [this.box.open(endpoint.secretSealed, context)];
    if (endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil.getTime() > Date.now()) {
      secrets.push(this.box.open(endpoint.previousSecretSealed, context));
    }
    return secrets;
  }
}
