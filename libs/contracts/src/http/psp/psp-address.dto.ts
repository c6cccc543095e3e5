import { IsOptionalText } from '../../validation/scalar-fields.decorator';

/**
 * `billingAddress` and `shippingAddress` of POST /psp/transaction (specification §2.2,
 * "Payment-processor address"). Not the v2 location: processors name the parts differently.
 */
export class PspAddressDto {
  @IsOptionalText('Flat 3', 'Anything beyond the street lines (building, floor).') additional?: string;
  @IsOptionalText('Ada Lovelace', 'The person the address is for.') addressee?: string;
  @IsOptionalText('GBR', 'Country, three-letter code.') country?: string;
  @IsOptionalText('London', 'City or town.') locality?: string;
  @IsOptionalText('EC1V 9HX') postalCode?: string;
  @IsOptionalText('Greater London', 'State, county or province.') region?: string;
  @IsOptionalText(
    'ewallet',
    'Where the address came from. The allowed values are not shown by the specification beyond an e-wallet value being accepted, so any string is taken.',
  )
  source?: string;
  @IsOptionalText('1 City Road') street1?: string;
  @IsOptionalText('Islington') street2?: string;
}
