import type { Address, Card, CustomerAccount, SimDevice, SupplierAccount } from '../entities';

/**
 * Request bodies in the shapes of the interface specification (§2, §4), built from the
 * simulation's entities. Every field sent is one the API's DTOs declare; the unit tests validate
 * generated bodies with the gateway's own validation. This file: the parties (customers,
 * suppliers), their devices, addresses and saved cards.
 */

export type Body = Record<string, unknown>;

export function v2Device(device: SimDevice, ipAddress: string, country: string): Body {
  const { profile } = device;
  return {
    deviceId: device.deviceId,
    ipAddress,
    language: device.language,
    userAgent: profile.userAgent,
    model: profile.model,
    os: profile.os,
    type: profile.type,
    manufacturer: profile.manufacturer,
    location: { country },
  };
}

export function pspDevice(device: SimDevice, ipAddress: string): Body {
  const { profile } = device;
  return {
    deviceId: device.deviceId,
    ipAddress,
    lang: device.language,
    manufacturer: profile.manufacturer,
    model: profile.model,
    os: profile.os,
    type: profile.type,
    userAgent: profile.userAgent,
  };
}

export function location(address: Address, addresseeName?: string): Body {
  return { ...address, ...(addresseeName ? { addresseeName } : {}) };
}

const fullName = (account: { givenName: string; familyName: string }) => `${account.givenName} ${account.familyName}`;

export function customer(account: CustomerAccount): Body {
  return {
    customerId: account.customerId,
    registrationTime: account.registrationTime,
    email: account.email,
    ...(account.emailVerifiedTime === undefined ? {} : { emailVerifiedTime: account.emailVerifiedTime }),
    name: fullName(account),
    givenName: account.givenName,
    familyName: account.familyName,
    telephone: account.telephone,
    ...(account.telephoneVerifiedTime === undefined ? {} : { telephoneVerifiedTime: account.telephoneVerifiedTime }),
    telephoneCountry: account.market.country,
    location: location(account.address, fullName(account)),
    accountType: 'REGISTERED',
  };
}

export function customerRequest(time: number, eventType: string, account: CustomerAccount, device?: SimDevice, ipAddress?: string): Body {
  return {
    timestamp: time,
    eventType,
    customer: customer(account),
    ...(device && ipAddress ? { device: v2Device(device, ipAddress, account.market.country) } : {}),
  };
}

export function registrationRequest(
  time: number,
  account: CustomerAccount,
  device: SimDevice,
  ipAddress: string,
  password: { hash: string; success: boolean },
  platform: string,
): Body {
  const success = password.success;
  return {
    timestamp: time,
    eventType: 'signup',
    registration: {
      app: { name: 'ringfence-market', platform, ...(platform === 'web' ? { domain: 'market.ringfence.example' } : {}) },
      username: account.email,
      registrationMechanism: { password: { passwordHashed: password.hash, success, ...(success ? {} : { failureReason: 'PASSWORD_TOO_SIMPLE' }) } },
      guestAccount: false,
      marketingEmailsEnabled: platform !== 'web',
      success,
    },
    ...(success
      ? {
          customer: {
            customerId: account.customerId,
            email: account.email,
            name: fullName(account),
            givenName: account.givenName,
            familyName: account.familyName,
            telephone: account.telephone,
            telephoneCountry: account.market.country,
          },
        }
      : {}),
    device: v2Device(device, ipAddress, account.market.country),
  };
}

export function supplier(account: SupplierAccount): Body {
  return {
    supplierId: account.supplierId,
    groupId: account.groupId,
    groupName: account.groupName,
    registrationTime: account.registrationTime,
    email: account.email,
    emailVerifiedTime: account.registrationTime + 600_000,
    name: account.name,
    telephone: account.telephone,
    telephoneVerifiedTime: account.registrationTime + 900_000,
    telephoneCountry: account.market.country,
    homeLocation: location(account.homeAddress),
    taxAddress: location(account.homeAddress, account.name),
    type: account.type,
    level: 'standard',
    employmentType: 'self-employed',
    ...(account.type === 'courier' ? { transportType: 'bicycle' } : {}),
    category: account.type === 'courier' ? 'delivery' : 'retail',
    accountType: 'INDIVIDUAL',
    accountPlatform: account.device.profile.os.startsWith('iOS') ? 'ios' : 'android',
    identityVerified: account.identityVerified,
  };
}

export function supplierRegistrationRequest(time: number, account: SupplierAccount, passwordHash: string): Body {
  return {
    timestamp: time,
    eventType: 'supplier-signup',
    registration: {
      app: { name: 'ringfence-partners', platform: 'android' },
      username: account.email,
      registrationMechanism: { password: { passwordHashed: passwordHash, success: true } },
      guestAccount: false,
      marketingEmailsEnabled: false,
      success: true,
    },
    supplier: {
      supplierId: account.supplierId,
      name: account.name,
      groupId: account.groupId,
      groupName: account.groupName,
      email: account.email,
      telephone: account.telephone,
      telephoneCountry: account.market.country,
      type: account.type,
      level: 'new',
    },
    device: v2Device(account.device, account.device.homeIp, account.market.country),
  };
}

export function supplierRequest(time: number, eventType: string, account: SupplierAccount): Body {
  return {
    timestamp: time,
    eventType,
    supplier: supplier(account),
    device: v2Device(account.device, account.device.homeIp, account.market.country),
  };
}

export function cardPaymentMethod(card: Card, extra: Body = {}): Body {
  return {
    methodType: 'card',
    paymentMethodId: card.paymentMethodId,
    scheme: card.issuer.scheme,
    instrumentId: card.instrumentId,
    cardBin: card.issuer.bin,
    cardLastFour: card.lastFour,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    nameOnCard: card.nameOnCard,
    billingAddress: location(card.billingAddress),
    corporateCard: false,
    virtualCard: card.virtual ?? false,
    successfulRegistration: true,
    registrationTime: card.registrationTime,
    ...extra,
  };
}
