import type { Database } from '../../db/database';
import { AuditRepository } from '../audit/audit.repository';
import { hashPassword } from '../auth/password-hasher';
import { UsersRepository } from '../auth/users.repository';

export const MIN_ADMIN_PASSWORD_LENGTH = 12;

/**
 * Adds an administrator from the server itself (`pnpm admin:add`), not over HTTP: with four-eyes on, the only way to get
 * a second admin when there is one, since an admin added over HTTP needs another admin's approval. Audited as the
 * operator's (actor: system).
 */
export async function addAdministrator(db: Database, input: { name: string; email: string; password: string }): Promise<{ id: string; email: string }> {
  const name = input.name.trim();
  const email = input.email.trim();
  if (!name) throw new Error('A name is required.');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`"${email}" is not an email address.`);
  if (input.password.length < MIN_ADMIN_PASSWORD_LENGTH || input.password.length > 128)
    throw new Error(`The password must be ${MIN_ADMIN_PASSWORD_LENGTH} to 128 characters.`);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const created = await new UsersRepository(db).insert({ name, email, passwordHash, country: '-', role: 'admin' }, tx);
    if (!created) throw new Error(`An account with the email ${email} already exists.`);
    await new AuditRepository(db).insert(
      {
        actorId: null,
        actorRole: 'system',
        action: 'admin.create',
        targetType: 'user',
        targetId: created.id,
        after: { name: created.name, email: created.email, role: 'admin', via: 'command line' },
      },
      tx,
    );
    return { id: created.id, email: created.email };
  });
}
