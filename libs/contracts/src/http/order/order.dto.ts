import { IsOptionalNested, IsOptionalNestedArray } from '../../validation/nested.decorator';
import { IsOptionalAmount, IsOptionalKeyText, IsOptionalText, IsRequiredIdentifier } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency, IsOptionalIdentifier } from '../shared/common-fields';
import { AppDto } from '../shared/app.dto';
import { LocationDto } from '../shared/location.dto';
import { ItemDto } from './item.dto';

/** `order.status`: where the order is and who moved it there. */
export class OrderStatusDto {
  @IsOptionalText('fulfilled', 'Values seen: `pending`, `fulfilled`.') stage?: string;
  @IsOptionalText('merchant', 'Who set the stage; value seen: `merchant`.') actor?: string;
}

/** `status` of an order's supplier: that supplier's part of the order. */
export class OrderSupplierStatusDto {
  @IsOptionalText('fulfilled', 'Value seen: `fulfilled`.') stage?: string;
  @IsOptionalTimestamp('When the supplier reached this stage (Unix time).') timestamp?: number;
  @IsOptionalText('delivered_to_door', 'Why the supplier is at this stage.') reason?: string;
}

/**
 * One element of `order.suppliers`: a supplier (driver, courier, restaurant, …) who took part in
 * the order. `supplierId` is required: it is what links the order's customer to the supplier in
 * the graph (ADR-0004).
 */
export class OrderSupplierDto {
  @IsRequiredIdentifier('sup-courier-12', 'The supplier, as identified on POST /v2/supplier.') supplierId!: string;

  @IsOptionalNested(() => OrderSupplierStatusDto)
  status?: OrderSupplierStatusDto;

  @IsOptionalAmount(250, "The supplier's fee: an integer in minor units.") fee?: number;
  @IsOptionalAmount(0, 'What the supplier owes on this order: an integer in minor units.') debt?: number;
  @IsOptionalAmount(150, 'Tip for the supplier: an integer in minor units.') tip?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalText('courier', 'Role of the supplier in the order, e.g. `driver`, `courier`.') type?: string;
}

/**
 * The order a refund returns (specification §2.2, "Order"). `orderId` is optional, as ADR-0009
 * does not list it among the required identifiers; without it the order is scored but not
 * stored as an entity.
 */
export class OrderDto {
  @IsOptionalIdentifier('ord-55120', "The merchant's identifier of the order.") orderId?: string;
  @IsOptionalTimestamp('When the order was created (Unix time).') creationTime?: number;

  @IsOptionalNested(() => AppDto, 'The merchant application the order was placed through.')
  app?: AppDto;

  @IsOptionalNested(() => OrderStatusDto)
  status?: OrderStatusDto;

  @IsOptionalAmount(2447, 'Total price: an integer in minor units of the currency.') price?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalText('GBR', 'Country of the order, three-letter code.') country?: string;
  @IsOptionalText('uk', 'The market (business region) of the order.') market?: string;
  @IsOptionalText('london', 'The city of the market.') marketCity?: string;
  @IsOptionalText('food_delivery') category?: string;

  @IsOptionalNested(() => LocationDto, 'Destination (delivery address, drop-off).')
  to?: LocationDto;

  @IsOptionalNested(() => LocationDto, 'Origin (restaurant, pick-up).')
  from?: LocationDto;

  @IsOptionalNestedArray(() => ItemDto)
  items?: ItemDto[];

  @IsOptionalKeyText('ada@example.com', 'Contact e-mail address given with the order.') email?: string;
  @IsOptionalKeyText('+447700900123', 'Contact telephone number given with the order.') telephone?: string;
  @IsOptionalText('GBR', 'Country of the telephone number, ISO alpha-3.') telephoneCountry?: string;
  @IsOptionalIdentifier('sel-3321', 'The marketplace seller of the order.') sellerId?: string;
  @IsOptionalTimestamp('When the order is delivered or the service performed (Unix time).') executionTime?: number;

  @IsOptionalNestedArray(() => OrderSupplierDto, 'The suppliers who took part in the order.')
  suppliers?: OrderSupplierDto[];
}
