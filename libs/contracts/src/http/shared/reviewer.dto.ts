import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** Who made a manual review (specification §2.2, "Reviewer"); shown in the audit log. */
export class ReviewerDto {
  @ApiPropertyOptional({ example: 'Grace Hopper' }) @IsOptional() @IsString() name?: string;

  @ApiPropertyOptional({ example: 'grace.hopper@merchant.example' })
  @IsOptional() @IsString() email?: string;
}
