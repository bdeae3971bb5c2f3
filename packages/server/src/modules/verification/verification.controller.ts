import { Body, Controller, Get, HttpCode, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { SubmitVerificationDto, UploadDocumentDto, VerificationDto, VerificationRoutes } from '@coinpurse/contract';
import { UserAccess } from '../../common/access.decorator';
import { ImageUploadInterceptor, type UploadedImageFile } from '../../common/image-upload';
import { CurrentPrincipal, type Principal } from '../../common/principal';
import { VerificationService } from './verification.service';

@ApiTags('verification')
@Controller(VerificationRoutes.prefix)
export class VerificationController {
  constructor(private readonly verification: VerificationService) {}

  @Get(VerificationRoutes.getVerification)
  @UserAccess('read')
  @ApiOkResponse({ type: VerificationDto, description: 'The level, what each level allows, what is missing, the latest submission and what is left today.' })
  getVerification(@CurrentPrincipal() principal: Principal): Promise<VerificationDto> {
    return this.verification.get(principal.id);
  }

  @Post(VerificationRoutes.uploadDocument)
  @HttpCode(200)
  @UserAccess('session-only')
  @UseInterceptors(ImageUploadInterceptor())
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadDocumentDto })
  @ApiOkResponse({
    type: VerificationDto,
    description:
      'Encrypted and kept until submitted (a new upload of the same kind replaces it). PNG, JPEG, WebP or GIF by its bytes, ≤ 5 MB (413, 415). 409 while in review.',
  })
  uploadDocument(
    @CurrentPrincipal() principal: Principal,
    @Body() body: UploadDocumentDto,
    @UploadedFile() image: UploadedImageFile | undefined,
  ): Promise<VerificationDto> {
    return this.verification.uploadDocument(principal, body.kind, image);
  }

  @Post(VerificationRoutes.submitVerification)
  @HttpCode(200)
  @UserAccess('session-only')
  @ApiOkResponse({ type: VerificationDto, description: 'In review until an admin decides. 400 for a missing document or a minor; 409 when one is in review.' })
  submitVerification(@CurrentPrincipal() principal: Principal, @Body() body: SubmitVerificationDto): Promise<VerificationDto> {
    return this.verification.submit(principal, body);
  }
}
