import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { DeviceCardMessage, DeviceMessage, DeviceReportedMessage, DeviceSessionMessage } from '../../messages/devices.message';

const SEEN = { type: 'integer', example: 1763800000000 } as const;
const COUNTS = { type: 'object', additionalProperties: { type: 'integer' }, example: { pageview: 3, paste: 1, 'form-submit': 1 } } as const;

export class DeviceReportedDto implements DeviceReportedMessage {
  @ApiPropertyOptional() userAgent?: string;
  @ApiPropertyOptional({ type: [String] }) languages?: string[];
  @ApiPropertyOptional({ example: 'Europe/London' }) timeZone?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'number' }, example: { width: 1920, height: 1080 } })
  screen?: DeviceReportedMessage['screen'];
  @ApiPropertyOptional() platform?: string;
  @ApiPropertyOptional() webdriver?: boolean;
  @ApiPropertyOptional() fingerprint?: string;
}

export class DeviceSessionDto implements DeviceSessionMessage {
  @ApiProperty({ example: 's-3c5e7a9b1d2f4e6a' }) sessionId!: string;
  @ApiProperty(SEEN) firstSeen!: number;
  @ApiProperty(SEEN) lastSeen!: number;
  @ApiProperty({ ...COUNTS, description: 'Events of the session by type.' }) eventCounts!: Record<string, number>;
}

export class DeviceIpAddressDto {
  @ApiProperty({ example: '203.0.113.7' }) ipAddress!: string;
  @ApiProperty(SEEN) firstSeen!: number;
  @ApiProperty(SEEN) lastSeen!: number;
}

export class DeviceCustomerDto {
  @ApiProperty({ example: 'cus-61213' }) customerId!: string;
  @ApiProperty(SEEN) firstSeen!: number;
  @ApiProperty(SEEN) lastSeen!: number;
}

export class DeviceCardDto implements DeviceCardMessage {
  @ApiPropertyOptional({ example: 'ins-8c1f' }) instrumentId?: string;
  @ApiPropertyOptional({ example: 'pm-1' }) paymentMethodId?: string;
  @ApiPropertyOptional({ example: '411111' }) cardBin?: string;
  @ApiPropertyOptional({ example: '1111' }) cardLastFour?: string;
  @ApiProperty(SEEN) firstSeen!: number;
  @ApiProperty(SEEN) lastSeen!: number;
}

/** `GET /v2/devices/:deviceId`: what the service knows of a device. */
export class DeviceRecordDto implements DeviceMessage {
  @ApiProperty({ example: 'd-6f1b0c2e9a7d4b3f8e1a5c7d9b2f4e6a' }) deviceId!: string;
  @ApiProperty({ ...SEEN, description: 'The first client event or checkpoint that named the device (epoch ms).' }) firstSeen!: number;
  @ApiProperty({ ...SEEN, description: 'The newest one.' }) lastSeen!: number;
  @ApiProperty({ type: () => DeviceReportedDto, nullable: true, description: 'The newest `device` object the SDK sent; null when it sent none.' })
  reported!: DeviceReportedDto | null;
  @ApiProperty({ type: [String], description: 'Every distinct fingerprint reported, oldest first (at most 20).' }) fingerprints!: string[];
  @ApiProperty({ ...COUNTS, description: 'Every client event of the device by type.' }) eventCounts!: Record<string, number>;
  @ApiProperty({ type: () => [DeviceSessionDto], description: 'The newest 50 sessions, oldest first.' }) sessions!: DeviceSessionDto[];
  @ApiProperty({ type: () => [DeviceIpAddressDto], description: 'The client IP addresses of its events, oldest first (the newest 50).' }) ipAddresses!: DeviceIpAddressDto[];
  @ApiProperty({ type: () => [DeviceCustomerDto], description: 'Customers named with the device by client events or checkpoints (the newest 100).' }) customers!: DeviceCustomerDto[];
  @ApiProperty({ type: () => [DeviceCardDto], description: 'Payment methods of checkpoints that named the device (the newest 100).' }) cards!: DeviceCardDto[];
}

export class DeviceRecordResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => DeviceRecordDto }) data!: DeviceRecordDto;
}
