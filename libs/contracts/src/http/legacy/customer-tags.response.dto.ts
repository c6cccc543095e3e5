import { ApiProperty } from '@nestjs/swagger';
import { CUSTOMER_LABEL_REVIEWS, type LabelReview } from '../labels/label-vocabulary';

/**
 * GET /v2/tag/customer/{customerId}: a customer's tags at the top level, as the original
 * service's client libraries read them (`tagNames`, and `label` and `tags` when present). The
 * original's `clientReviewedStatus` is not answered: the specification gives it no meaning.
 */
export class CustomerTagsResponseDto {
  @ApiProperty({ example: 'cus-61213' }) customerId!: string;

  @ApiProperty({ type: [String], example: ['staff', 'vip'], description: 'The names of the customer’s current tags (set true), in code-unit order; empty for a customer never tagged.' })
  tagNames!: string[];

  @ApiProperty({ type: 'object', additionalProperties: { type: 'boolean' }, example: { staff: true, vip: true }, description: 'The same tags as the specification’s `tags` map (§2.1), each true; a removed tag is absent.' })
  tags!: Record<string, boolean>;

  @ApiProperty({ enum: CUSTOMER_LABEL_REVIEWS, example: 'UNREVIEWED', description: 'The customer’s current PAYMENT_FRAUD label (GET /v2/customer/{customerId}/labels), UNREVIEWED when it has none.' })
  label!: LabelReview;
}
