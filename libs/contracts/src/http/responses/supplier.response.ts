import { ApiProperty } from '@nestjs/swagger';

/** POST /v2/supplier (specification §4.6): `status` and `success`. */
export class SupplierResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ example: 'true', description: 'Always the string `"true"` on success (a string, as the specification gives it).' }) success!: string;
}
