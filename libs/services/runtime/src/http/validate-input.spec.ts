import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CustomerCheckpointRequest,
  CustomerRequestDto,
  CustomerUpdatedEvent,
  PspTransactionRequestDto,
  RegistrationRequestDto,
  RegistrationSubmittedEvent,
  TransactionUpdatedEvent,
} from '@ringfence/contracts';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { type InputClass, isValidatedAs, validateInput } from './validate-input';

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
