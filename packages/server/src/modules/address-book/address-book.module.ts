import { Global, Module } from '@nestjs/common';
import { AddressBookController } from './address-book.controller';
import { AddressBookRepository } from './address-book.repository';
import { AddressBookService } from './address-book.service';

/** Withdrawal address book and allowlist; global so the wallet's send can check the allowlist. */
@Global()
@Module({ controllers: [AddressBookController], providers: [AddressBookRepository, AddressBookService], exports: [AddressBookService] })
export class AddressBookModule {}
