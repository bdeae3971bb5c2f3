import { Inject, Injectable } from '@nestjs/common';
import {
  type CreateTicketDto,
  TICKET_CREATED_MESSAGE,
  type TicketCreatedDto,
  type TicketDetailDto,
  type TicketPageDto,
  type TicketSummaryDto,
} from '@coinpurse/contract';
import { ConflictError, NotFoundError } from '../../common/errors';
import { checkImage, imagePath, type UploadedImageFile } from '../../common/image-upload';
import type { Actor, Principal } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database } from '../../db/database';
import { decodeCursor, encodeCursor, pageLimit, PG_TIMESTAMP_TEXT, UUID_TEXT } from '../../common/page-cursor';
import { AuditService } from '../audit/audit.service';
import { MailService, type OutgoingMail } from '../mail/mail.service';
import { NotificationsService } from '../notifications/notifications.service';
import { escapeHtml } from '../../common/html';
import { StoredImagesService } from '../stored-images/stored-images.service';
import { type TicketRecord, TicketsRepository } from './tickets.repository';

export const TICKET_NOT_FOUND = 'Ticket not found.';

@Injectable()
export class TicketsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tickets: TicketsRepository,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly images: StoredImagesService,
  ) {}

  /** Signed in: the ticket is linked to the account. Signed out: only the email given. The image is checked by its bytes. */
  async createTicket(principal: Principal | undefined, input: CreateTicketDto, file: UploadedImageFile | undefined): Promise<TicketCreatedDto> {
    const image = checkImage(file);
    // The image and the ticket commit together: no image without its ticket, on any instance.
    const ticket = await this.db.transaction(async (tx) =>
      this.tickets.insert(
        {
          userId: principal?.role === 'user' ? principal.id : null,
          email: input.email,
          subject: input.subject,
          note: input.note,
          image: image ? await this.images.store(image, tx) : null,
        },
        tx,
      ),
    );
    return { _id: ticket.id, message: TICKET_CREATED_MESSAGE };
  }

  async listTickets(query: { status?: 'open' | 'closed'; limit?: string; cursor?: string }): Promise<TicketPageDto> {
    const limit = pageLimit(query.limit);
    const after = query.cursor ? decodeCursor(query.cursor, [PG_TIMESTAMP_TEXT, UUID_TEXT]) : undefined;
    const rows = await this.tickets.list({ status: query.status, after: after && { createdAt: after[0], id: after[1] }, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row): TicketSummaryDto => ({
        _id: row.id,
        subject: row.subject,
        email: row.email,
        userId: row.userId,
        status: row.status,
        createdAt: row.createdAt.toISOString(),
        image: imagePath(row.image),
        replies: row.replies,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor([last.createdAtKey, last.id]) : null,
    };
  }

  async getTicket(id: string): Promise<TicketDetailDto> {
    const ticket = UUID_TEXT.test(id) ? await this.tickets.findById(id) : undefined;
    if (!ticket) throw new NotFoundError(TICKET_NOT_FOUND);
    return this.detail(ticket);
  }

  /** Stores the reply, notifies the linked customer, audits it and queues the mail to the ticket's email: one transaction. */
  async replyTicket(actor: Actor, id: string, message: string): Promise<TicketDetailDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError(TICKET_NOT_FOUND);
    const ticket = await this.db.transaction(async (tx) => {
      const found = await this.tickets.findById(id, { lock: true }, tx);
      if (!found) throw new NotFoundError(TICKET_NOT_FOUND);
      if (found.status === 'closed') throw new ConflictError('This ticket is closed.');
      const reply = await this.tickets.insertReply({ ticketId: found.id, adminId: actor.id, message }, tx);
      if (found.userId && (await this.tickets.userName(found.userId, tx))?.active) {
        await this.notifications.notify(
          { userId: found.userId, title: `Reply to your ticket: ${found.subject}`.slice(0, 200), message, createdBy: actor.id },
          tx,
        );
      }
      await this.audit.record(actor, { action: 'ticket.reply', targetType: 'ticket', targetId: found.id, after: { replyId: reply.id, message } }, tx);
      await this.mail.send(this.replyMail(found, message), tx);
      return found;
    });
    return this.detail(ticket.id);
  }

  async closeTicket(actor: Actor, id: string): Promise<TicketDetailDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError(TICKET_NOT_FOUND);
    await this.db.transaction(async (tx) => {
      const found = await this.tickets.findById(id, { lock: true }, tx);
      if (!found) throw new NotFoundError(TICKET_NOT_FOUND);
      if (found.status === 'closed') throw new ConflictError('This ticket is already closed.');
      await this.tickets.close(found.id, actor.id, tx);
      await this.audit.record(
        actor,
        { action: 'ticket.close', targetType: 'ticket', targetId: found.id, before: { status: 'open' }, after: { status: 'closed' } },
        tx,
      );
    });
    return this.detail(id);
  }

  private async detail(ticketOrId: TicketRecord | string): Promise<TicketDetailDto> {
    const ticket = typeof ticketOrId === 'string' ? await this.tickets.findById(ticketOrId) : await this.tickets.findById(ticketOrId.id);
    if (!ticket) throw new NotFoundError(TICKET_NOT_FOUND);
    const [replies, user] = await Promise.all([this.tickets.replies(ticket.id), ticket.userId ? this.tickets.userName(ticket.userId) : undefined]);
    return {
      _id: ticket.id,
      subject: ticket.subject,
      note: ticket.note,
      email: ticket.email,
      userId: ticket.userId,
      userName: user?.name ?? null,
      status: ticket.status,
      image: imagePath(ticket.image),
      createdAt: ticket.createdAt.toISOString(),
      closedAt: ticket.closedAt?.toISOString() ?? null,
      replies: replies.map((r) => ({ _id: r.id, message: r.message, adminId: r.adminId, author: r.author, createdAt: r.createdAt.toISOString() })),
    };
  }

  private replyMail(ticket: TicketRecord, message: string): OutgoingMail {
    const subject = `Re: ${ticket.subject}`.replace(/[\r\n]+/g, ' ').slice(0, 250);
    return {
      to: ticket.email,
      subject,
      text: `${message}\n\n— Coinpurse support\n\nYour ticket: ${ticket.subject}\n${this.config.publicUrl}/ticket\n`,
      html: `<p>${escapeHtml(message).replace(/\n/g, '<br>')}</p><p>— Coinpurse support</p><p>Your ticket: ${escapeHtml(ticket.subject)}</p>`,
    };
  }
}
