import { Injectable } from '@nestjs/common';
import type { DepositTagOwnerDto } from '@coinpurse/contract';
import { randomInt } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../../common/errors';
import { findNetwork } from '../../common/networks';
import { DepositTagsRepository } from './deposit-tags.repository';

/** The networks whose deposits all go to one shared address and are told apart by the tag or memo sent with them. */
export const MEMO_NETWORKS: readonly string[] = ['xrp', 'stellar'];

/**
 * Tags are drawn at random among the 9-digit numbers: far apart, so a mistyped tag almost never names another customer,
 * and valid everywhere — an XRP destination tag is a 32-bit unsigned integer, a Stellar memo an id or up to 28 bytes
 * of text.
 */
const FIRST_TAG = 100_000_000;
const LAST_TAG = 999_999_999;
const LARGEST_TAG = 4_294_967_295;

/**
 * Each customer's destination tag (xrp) or memo (stellar) on a memo network's shared deposit address: allocated once,
 * the first time their tokens are listed, kept for good, unique per network; admins find the customer of a deposit by
 * it (`GET /api/admin/deposit-tags/:network/:tag`).
 */
@Injectable()
export class DepositTagsService {
  constructor(private readonly repository: DepositTagsRepository) {}

  /** The customer's tag per memo network among `networks`, allocating the missing ones. */
  async tagsFor(userId: string, networks: string[]): Promise<Map<string, string>> {
    const memo = [...new Set(networks)].filter((network) => MEMO_NETWORKS.includes(network));
    const found = new Map((await this.repository.forUser(userId, memo)).map((row) => [row.network, String(row.tag)]));
    for (const network of memo) {
      if (!found.has(network)) found.set(network, String(await this.allocate(userId, network)));
    }
    return found;
  }

  private async allocate(userId: string, network: string): Promise<number> {
    // A draw taken by another customer is drawn again (rare: a few thousand customers among 900 million tags).
    for (let attempt = 0; attempt < 10; attempt++) {
      const tag = randomInt(FIRST_TAG, LAST_TAG + 1);
      if (await this.repository.insert(userId, network, tag)) return tag;
      // Or a concurrent call gave this customer theirs meanwhile: that one is theirs.
      const [existing] = await this.repository.forUser(userId, [network]);
      if (existing) return existing.tag;
    }
    throw new Error(`No free ${network} deposit tag found in 10 draws`);
  }

  /** The customer behind a tag: 400 for a network without tags or a value that is no tag, 404 when nobody has it. */
  async owner(networkId: string, tagText: string): Promise<DepositTagOwnerDto> {
    const network = findNetwork(networkId);
    if (!network?.memo || !MEMO_NETWORKS.includes(network.id)) {
      throw new InvalidInputError(`Deposits on ${network?.shortName ?? `"${networkId.slice(0, 40)}"`} carry no destination tag or memo: use xrp or stellar.`);
    }
    const label = network.memo.label;
    const text = tagText.trim();
    if (!/^\d{1,20}$/.test(text) || Number(text) > LARGEST_TAG)
      throw new InvalidInputError(`A ${label.toLowerCase()} is a whole number from 0 to ${LARGEST_TAG}.`);
    const row = await this.repository.owner(network.id, Number(text));
    if (!row || row.role !== 'user') throw new NotFoundError(`No customer has ${label.toLowerCase()} ${Number(text)} on ${network.shortName}.`);
    return {
      network: network.id,
      tag: String(row.tag),
      label,
      userId: row.userId,
      name: row.name,
      email: row.email,
      active: row.deactivatedAt === null,
    };
  }
}
