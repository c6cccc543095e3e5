import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';

/**
 * A merchant-defined entity linked to the customer as a graph node (specification §2.2, "Custom
 * node (connect)"). The account's first five distinct `nodeType`s take the slots customNode1..5
 * of the connect answer (ADR-0004).
 */
export class CustomNodeDto {
  @ApiProperty({ example: 'loyaltyCard', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: 'Kind of entity. Required: with nodeId it identifies the node.' })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) nodeType!: string;
  @ApiProperty({ example: 'LC-0098812', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: 'Identifier of the entity within its nodeType. Required.' })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) nodeId!: string;
  @ApiPropertyOptional({ example: 'Gold loyalty card', description: 'Display name.' }) @IsOptional() @IsString() nodeName?: string;
}
