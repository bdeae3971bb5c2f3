import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { SecondFactorCode } from './security';
import { COUNTRY_IN, COUNTRY_OUT, EmailAddress, RequiredText } from './text';

export class CreateUserDto {
  @ApiProperty({ example: 'Ada Lovelace', maxLength: 100 })
  @RequiredText('Name is required.', 100, 'Name must be at most 100 characters.')
  name: string;

  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @EmailAddress()
  email: string;

  @ApiProperty({ example: 'correct horse battery', minLength: 8, maxLength: 128 })
  @IsString({ message: 'Password is required.' })
  @MinLength(8, { message: 'Password must be at least 8 characters.' })
  @MaxLength(128, { message: 'Password must be at most 128 characters.' })
  password: string;

  @ApiProperty({ example: 'United Kingdom', maxLength: 100, description: COUNTRY_IN })
  @RequiredText('Country is required.', 100, 'Country must be at most 100 characters.')
  country: string;
}

export class LoginDto {
  @ApiProperty({ example: 'ada@example.com' })
  @RequiredText('Email is required.', 254, 'Email must be at most 254 characters.')
  email: string;

  @ApiProperty({ example: 'correct horse battery' })
  @IsString({ message: 'Password is required.' })
  @IsNotEmpty({ message: 'Password is required.' })
  @MaxLength(128, { message: 'Password must be at most 128 characters.' })
  password: string;

  @SecondFactorCode()
  code?: string;
}

/** The session object: stored by the client under the `user` key exactly as returned. */
export class SessionDto {
  @ApiProperty({ description: 'JWT (HS256) bearer token with sub, role, iat, exp' })
  token: string;

  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ example: 'United Kingdom', description: COUNTRY_OUT })
  country: string;

  @ApiProperty({ enum: ['user', 'admin'] })
  role: 'user' | 'admin';
}

export class ProfileDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ example: 'United Kingdom', description: COUNTRY_OUT })
  country: string;

  @ApiProperty({ enum: ['user', 'admin'] })
  role: 'user' | 'admin';

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class UpdateProfileDto {
  @ApiProperty({ required: false, maxLength: 100 })
  @IsOptional()
  @RequiredText('Name is required.', 100, 'Name must be at most 100 characters.')
  name?: string;

  @ApiProperty({ required: false, maxLength: 100, example: 'United Kingdom', description: COUNTRY_IN })
  @IsOptional()
  @RequiredText('Country is required.', 100, 'Country must be at most 100 characters.')
  country?: string;

  @ApiProperty({ required: false, maxLength: 254, description: 'A new sign-in email; needs the two-factor code when two-factor sign-in is on.' })
  @IsOptional()
  @EmailAddress()
  email?: string;

  @SecondFactorCode()
  code?: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @IsString({ message: 'Current password is required.' })
  @IsNotEmpty({ message: 'Current password is required.' })
  @MaxLength(128, { message: 'Password must be at most 128 characters.' })
  currentPassword: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @IsString({ message: 'New password is required.' })
  @MinLength(8, { message: 'Password must be at least 8 characters.' })
  @MaxLength(128, { message: 'Password must be at most 128 characters.' })
  newPassword: string;

  @SecondFactorCode()
  code?: string;
}
