import { IsOptionalNested } from '../../validation/nested.decorator';
import { IsOptionalAmount, IsOptionalInteger, IsOptionalText } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency } from '../shared/common-fields';
import { LocationDto } from '../shared/location.dto';

/** `eventTicket.ticket`: the ticket itself. */
export class TicketDto {
  @IsOptionalText('tkt-88412', "The merchant's identifier of the ticket.") ticketId?: string;
  @IsOptionalText('standing', 'Kind of ticket, e.g. seated, standing, VIP.') ticketType?: string;
  @IsOptionalTimestamp('From when the ticket is valid (Unix time).') validFromTime?: number;
  @IsOptionalTimestamp('Until when the ticket is valid (Unix time).') validUntilTime?: number;
}

/** `eventTicket.event.venue`: where the event takes place. */
export class VenueDto {
  @IsOptionalText('O2 Academy Brixton') name?: string;

  @IsOptionalNested(() => LocationDto)
  location?: LocationDto;
}

/** `eventTicket.event`: the event the ticket admits to. */
export class TicketedEventDto {
  @IsOptionalText('evt-2207', "The merchant's identifier of the event.") eventId?: string;
  @IsOptionalText('The Lovelace Quartet live') name?: string;
  @IsOptionalText('An evening of analytical engine jazz.') description?: string;
  @IsOptionalTimestamp('When the event starts (Unix time).') startTime?: number;
  @IsOptionalTimestamp('When the event ends (Unix time).') endTime?: number;
  @IsOptionalText('concert') category?: string;

  @IsOptionalNested(() => VenueDto)
  venue?: VenueDto;
}

/** `eventTicket.guest`: the person the ticket is for. */
export class TicketGuestDto {
  @IsOptionalText('Lovelace') familyName?: string;
  @IsOptionalText('Ada') givenName?: string;
  @IsOptionalText('Ada Lovelace') name?: string;
}

/** `eventTicket` of an item: ticket, event and guest. */
export class EventTicketDto {
  @IsOptionalNested(() => TicketDto)
  ticket?: TicketDto;

  @IsOptionalNested(() => TicketedEventDto)
  event?: TicketedEventDto;

  @IsOptionalNested(() => TicketGuestDto)
  guest?: TicketGuestDto;
}

/** One item of an order or a refund (specification §2.2, "Item"). */
export class ItemDto {
  @IsOptionalText('SKU-PIZZA-MARG-12', "The merchant's stock-keeping unit.") sku?: string;
  @IsOptionalInteger(2, 'How many of the item.') quantity?: number;
  @IsOptionalText('Margherita pizza, 12"') name?: string;
  @IsOptionalAmount(1099, 'Price of one unit: an integer in minor units of the currency.') price?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalText('food') category?: string;
  @IsOptionalTimestamp('When the item is delivered or the service performed (Unix time).') executionTime?: number;

  @IsOptionalNested(() => EventTicketDto, 'For tickets: the ticket, the event and the guest.')
  eventTicket?: EventTicketDto;
}
