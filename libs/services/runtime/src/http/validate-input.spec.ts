import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CustomerCheckpointRequest,
  CustomerRequestDto,
  CustomerUpdatedEvent,
  PspTransactionRequestDto,
  RefundRequestDto,
  RegistrationRequestDto,
  RegistrationSubmittedEvent,
  TransactionUpdatedEvent,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { extendValidated, type InputClass, isValidatedAs, validateInput } from './validate-input';

class Note {
  @IsString() text!: string;
}

/** A topic's name for the same shape: no rule of its own. */
class NoteEvent extends Note {}

/** Adds an optional field, as the transaction event adds `checkpoint`. */
class TaggedNote extends Note {
  @IsOptional() @IsIn(['a', 'b']) tag?: string;
}

/** Adds a required field. */
class TitledNote extends Note {
  @IsString() title!: string;
}

/** A stricter rule on a field the parent has. */
class ShortNote extends Note {
  @MaxLength(3) declare text: string;
}

/** The same shape, unrelated by inheritance. */
class Memo {
  @IsString() text!: string;
}

async function validated<T extends object>(inputClass: InputClass<T>, plain: object): Promise<T> {
  const outcome = validateInput(inputClass, plain);
  if (!outcome.ok) throw new Error(outcome.problems.join('; '));
  return outcome.value;
}

const goldenBody = (fixture: string): object =>
  (JSON.parse(readFileSync(join(__dirname, '../../../../../test/contracts/fixtures', `${fixture}.json`), 'utf8')) as { body: object }).body;

describe(isValidatedAs.name, () => {
  it('knows what validateInput produced, as the class it was validated as', async () => {
    expect(isValidatedAs(await validated(Note, { text: 'hi' }), Note)).toBe(true);
  });

  it('does not take plain objects, hand-built instances or failed input for validated', async () => {
    expect(isValidatedAs({ text: 'hi' }, Note)).toBe(false);
    expect(isValidatedAs(Object.assign(new Note(), { text: 'hi' }), Note)).toBe(false);
    expect(isValidatedAs(null, Note)).toBe(false);
    expect(isValidatedAs('hi', Note)).toBe(false);
    const failed = validateInput(Note, { text: 7 });
    expect(failed.ok).toBe(false);
  });

  it('takes an object validated as a subclass for valid as its parent', async () => {
    expect(isValidatedAs(await validated(TitledNote, { text: 'hi', title: 't' }), Note)).toBe(true);
  });

  it('takes an object validated as a parent for valid as a subclass that adds no rule', async () => {
    expect(isValidatedAs(await validated(Note, { text: 'hi' }), NoteEvent)).toBe(true);
  });

  it('takes a parent for a subclass adding optional fields only while those fields are absent', async () => {
    const note = await validated(Note, { text: 'hi', tag: 'zzz' });
    expect(isValidatedAs(note, TaggedNote)).toBe(true);
    Object.assign(note, { tag: 'zzz' });
    expect(isValidatedAs(note, TaggedNote)).toBe(false);
  });

  it('does not take a parent for a subclass adding a required field, nor for an unrelated class', async () => {
    const note = await validated(Note, { text: 'hi' });
    expect(isValidatedAs(note, TitledNote)).toBe(false);
    expect(isValidatedAs(note, Memo)).toBe(false);
  });

  it('does not take a parent for a subclass with a stricter rule on one of its fields', async () => {
    const note = await validated(Note, { text: 'long enough' });
    expect(isValidatedAs(note, ShortNote)).toBe(false);
    expect(validateInput(ShortNote, { text: 'long enough' }).ok).toBe(false);
  });

  describe('with the contracts', () => {
    it('takes a validated customer body for the customer event and checkpoint request', async () => {
      const body = await validated(CustomerRequestDto, goldenBody('customer/valid/full'));
      expect(isValidatedAs(body, CustomerUpdatedEvent)).toBe(true);
      expect(isValidatedAs(body, CustomerCheckpointRequest)).toBe(true);
    });

    it('takes a validated PSP transaction body for the transaction event until a checkpoint is set on it', async () => {
      const body = await validated(PspTransactionRequestDto, goldenBody('psp-transaction/valid/full'));
      expect(isValidatedAs(body, TransactionUpdatedEvent)).toBe(true);
      Object.assign(body, { checkpoint: 'pspBeforeAuth' });
      expect(isValidatedAs(body, TransactionUpdatedEvent)).toBe(false);
    });

    it('does not take a registration body for the registration event (it differs: no hash, an id, a verdict)', async () => {
      const body = await validated(RegistrationRequestDto, goldenBody('registration/valid/full-customer'));
      expect(isValidatedAs(body, RegistrationSubmittedEvent)).toBe(false);
    });
  });
});

describe(`${validateInput.name} hands on the parsed JSON`, () => {
  it('as the same object, whose nested times normaliseTimestamps finds by the class it was validated as', async () => {
    const sent = goldenBody('refund/valid/full') as { timestamp: number; refund: { refundRequestTime: number } };
    // Seconds, which the gateway normalises to milliseconds, at the top and nested.
    sent.timestamp = 1_763_800_000;
    sent.refund.refundRequestTime = 1_763_799_940;
    const body = await validated(RefundRequestDto, sent);
    expect(body).toBe(sent);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    normaliseTimestamps(body);
    expect(sent.timestamp).toBe(1_763_800_000_000);
    expect(sent.refund.refundRequestTime).toBe(1_763_799_940_000);
  });
});

describe(extendValidated.name, () => {
  it('validates what the subclass adds, shares the rest and leaves the validated object as it was', async () => {
    const body = await validated(PspTransactionRequestDto, goldenBody('psp-transaction/valid/full'));
    const before = JSON.stringify(body);
    const outcome = extendValidated(TransactionUpdatedEvent, body, { checkpoint: 'pspAfterAuth' });
    expect(outcome.ok).toBe(true);
    const event = (outcome as { value: TransactionUpdatedEvent }).value;
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(event.checkpoint).toBe('pspAfterAuth');
    expect(event.transaction).toBe(body.transaction);
    expect(JSON.stringify(body)).toBe(before);
    expect(isValidatedAs(event, TransactionUpdatedEvent)).toBe(true);
    // What validating the whole object again would give.
    const whole = validateInput(TransactionUpdatedEvent, JSON.parse(JSON.stringify(event)) as object);
    expect(whole.ok && JSON.stringify(whole.value)).toBe(JSON.stringify(event));
  });

  it('reports a failing addition as validateInput would, and does not mark it validated', async () => {
    const body = await validated(TaggedNote, { text: 'hi' });
    const outcome = extendValidated(TaggedNote, body, { tag: 'c' });
    expect(outcome).toEqual(validateInput(TaggedNote, { text: 'hi', tag: 'c' }));
    expect(outcome.ok).toBe(false);
  });

  it('checks every field the subclass adds a rule to, not only the additions', async () => {
    const body = await validated(Note, { text: 'long text' });
    expect(extendValidated(ShortNote, body, {}).ok).toBe(false);
    expect(extendValidated(TitledNote, body, {}).ok).toBe(false);
    const titled = extendValidated(TitledNote, body, { title: 'a title' });
    expect(titled.ok && isValidatedAs(titled.value, TitledNote)).toBe(true);
  });

  it('validates the whole object when it cannot rely on the validated one', async () => {
    const fromParent = await validated(Note, { text: 'hi' });
    // An addition to a field the subclass adds no rule to: the parent's rule must see it.
    expect(extendValidated(TaggedNote, fromParent, { text: 42 } as unknown as Partial<TaggedNote>).ok).toBe(false);
    // Not produced by validateInput.
    expect(extendValidated(TaggedNote, Object.assign(new Note(), { text: 42 }), { tag: 'a' }).ok).toBe(false);
    // Not a subclass of the class it was validated as.
    expect(extendValidated(TaggedNote, await validated(Memo, { text: 'hi' }), { tag: 'a' }).ok).toBe(true);
    expect(extendValidated(TaggedNote, await validated(Memo, { text: 'hi' }), { tag: 'z' }).ok).toBe(false);
  });
});
