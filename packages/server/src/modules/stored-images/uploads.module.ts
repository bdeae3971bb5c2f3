import { Global, Module } from '@nestjs/common';
import { StoredImagesRepository } from './stored-images.repository';
import { StoredImagesService } from './stored-images.service';

/** Uploaded images in the database; `StoredImagesService.store(image, tx)` for features, its middleware for `/images`. */
@Global()
@Module({ providers: [StoredImagesRepository, StoredImagesService], exports: [StoredImagesService] })
export class UploadsModule {}
